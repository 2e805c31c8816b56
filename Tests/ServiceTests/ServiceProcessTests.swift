import Foundation
import HTTPClient
import Service
import Telemetry
import Testing
import TestSupport

/// The running service over real sockets: readiness across outages, body limits, and the executable's lifecycle.
@Suite struct ServiceProcessTests {
    private func configuration(_ overrides: [String: String] = [:]) throws -> Configuration {
        var environment = [
            "DATABASE_URL": try TestEnvironment.databaseURL(),
            "REDIS_URL": try TestEnvironment.redisURL(),
            "HTTP_THREADS": "2",
            "REDIS_TIMEOUT_MS": "300",
        ]
        environment.merge(overrides) { $1 }
        var configuration = try Configuration(environment: environment)
        configuration.httpPort = 0
        if configuration.metricsAddress != nil { configuration.metricsAddress?.port = 0 }
        return configuration
    }

    private func start(_ configuration: Configuration) throws -> RunningAPI {
        try RunningAPI(configuration: configuration,
                       logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)))
    }

    private func get(_ port: Int, _ path: String, method: String = "GET", body: [UInt8] = [],
                     host: String = "127.0.0.1") throws -> HTTPResponse {
        try HTTPClient().send(HTTPRequest(method: method, url: "http://\(host):\(port)\(path)", body: body,
                                          totalTimeout: 10))
    }

    @Test func readyzIs503WhilePostgresIsStoppedAnd200AgainAfterItRestarts() throws {
        let postgres = try ScratchPostgres()
        let api = try start(try configuration(["DATABASE_URL": postgres.url]))
        defer { api.stop(drainSeconds: 1) }

        #expect(try get(api.port, "/readyz").status == 200)
        try postgres.stop()
        let down = try get(api.port, "/readyz")
        #expect(down.status == 503)
        #expect(down.header("Retry-After") == "5")
        #expect(String(decoding: down.body, as: UTF8.self)
            == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","message":"not ready: postgres not answering"}"#)
        try postgres.start()
        #expect(try get(api.port, "/readyz").status == 200)
    }

    @Test func readyzIs503NamingRedisWhileRedisIsFrozenAndRecoversAfter() throws {
        let redis = try ScratchRedis()
        let api = try start(try configuration(["REDIS_URL": redis.url]))
        defer { api.stop(drainSeconds: 1) }

        #expect(try get(api.port, "/readyz").status == 200)
        redis.pause()
        let started = Date()
        let down = try get(api.port, "/readyz")
        redis.resume()
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(down.status == 503)
        #expect(String(decoding: down.body, as: UTF8.self)
            == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","message":"not ready: redis not answering"}"#)
        #expect(try get(api.port, "/readyz").status == 200)
    }

    @Test func aBodyOverTheLimitIs413OverTheSocketWithARequestId() throws {
        let api = try start(try configuration(["HTTP_MAX_BODY_BYTES": "100"]))
        defer { api.stop(drainSeconds: 1) }

        let tooLarge = try get(api.port, "/somewhere", method: "POST", body: Array(repeating: 0x41, count: 101))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.header("X-Request-Id") != nil)
        #expect(String(decoding: tooLarge.body, as: UTF8.self)
            == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
                #""message":"the body is larger than the 100 bytes this endpoint accepts"}"#)
        let fits = try get(api.port, "/somewhere", method: "POST", body: Array(repeating: 0x41, count: 100))
        #expect(fits.status == 404)
    }

    @Test func sigtermMakesServeDrainAndExit0() throws {
        let port = try Shell.freePort()
        let process = try ChildProcess([try HandoffBinary.path(), "serve"], environment: [
            "HTTP_PORT": String(port), "DATABASE_URL": try TestEnvironment.databaseURL(),
            "REDIS_URL": try TestEnvironment.redisURL(), "PATH": "/usr/bin:/bin", "METRICS_ADDRESS": "off",
        ])
        var answered = false
        for _ in 0..<100 where !answered {
            answered = (try? get(port, "/healthz").status) == 200
            if !answered { usleep(100_000) }
        }
        #expect(answered)
        process.signal(SIGTERM)
        #expect(try process.wait(timeout: 30) == .exited(0))
        let log = process.output()
        let messages = log.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["msg"] as? String
        }
        #expect(messages.contains("listening"))
        #expect(messages.contains("shutting down"))
        #expect(messages.last == "stopped")
    }

    @Test func metricsAreServedOnTheirOwnListenerAndThePublicPortAnswers404() throws {
        let api = try start(try configuration())
        defer { api.stop(drainSeconds: 1) }
        let metricsPort = try #require(api.metricsPort)
        #expect(metricsPort != api.port)
        #expect(try get(api.port, "/healthz").status == 200)

        let publicMetrics = try get(api.port, "/metrics")
        #expect(publicMetrics.status == 404)
        #expect(String(decoding: publicMetrics.body, as: UTF8.self)
            == #"{"statusCode":404,"code":"NOT_FOUND","message":"no route for this path"}"#)

        let scraped = try get(metricsPort, "/metrics")
        #expect(scraped.status == 200)
        #expect(scraped.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = String(decoding: scraped.body, as: UTF8.self)
        #expect(text.contains(#"handoff_http_requests_total{route="/healthz",method="GET",status="200"} 1"#))
        #expect(text.contains(#"handoff_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(text.contains(#"handoff_pool_connections{pool="postgres",state="size"}"#))
        #expect(try get(metricsPort, "/healthz").status == 404)
    }

    @Test func metricsAddressOffServesMetricsNowhereAndATakenOneStopsTheStartNamingIt() throws {
        let off = try start(try configuration(["METRICS_ADDRESS": "off"]))
        #expect(off.metricsPort == nil)
        off.stop(drainSeconds: 0)

        let first = try start(try configuration())
        defer { first.stop(drainSeconds: 1) }
        var taken = try configuration()
        taken.metricsAddress = ListenAddress(host: "127.0.0.1", port: try #require(first.metricsPort))
        #expect {
            _ = try start(taken)
        } throws: { error in
            guard let problem = error as? ConfigurationError else { return false }
            return problem.variable == "METRICS_ADDRESS" && problem.problem.contains("Address already in use")
        }
    }

    @Test func theServiceCapsConnectionsPerClientAddressFromItsConfiguration() throws {
        let api = try start(try configuration(["HTTP_CONNECTIONS_PER_IP": "2"]))
        defer { api.stop(drainSeconds: 1) }
        let held = try (0..<2).map { _ in try HeldConnection(port: api.port, from: "127.0.0.1") }
        #expect(held.map { $0.get("/healthz") } == [200, 200])
        #expect(try HeldConnection(port: api.port, from: "127.0.0.1").get("/healthz") == nil)
        #expect(try HeldConnection(port: api.port, from: "127.0.0.2").get("/healthz") == 200)
    }

    @Test(.enabled(if: ((try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? "")
        .contains("00000000000000000000000000000001"), "the kernel has IPv6 disabled (no ::1 in /proc/net/if_inet6)"))
    func withHTTPHostTheIPv6AnyAddressTheServiceAnswersOnIPv6AndIPv4() throws {
        let api = try start(try configuration(["HTTP_HOST": "::"]))
        defer { api.stop(drainSeconds: 1) }
        #expect(try get(api.port, "/healthz", host: "[::1]").status == 200)
        #expect(try get(api.port, "/healthz", host: "127.0.0.1").status == 200)
    }

    @Test func theMigrateCommandAppliesOnceAndIsANoOpTheSecondTime() throws {
        let url = try TestDatabase.create(prefix: "cli")
        for isFirstRun in [true, false] {
            let process = try ChildProcess([try HandoffBinary.path(), "migrate"],
                                           environment: ["DATABASE_URL": url, "PATH": "/usr/bin:/bin"])
            #expect(try process.wait(timeout: 60) == .exited(0))
            let log = process.output()
            let appliedNone = log.contains("\"applied\":0,") || log.contains("\"applied\":0}")
            #expect(appliedNone != isFirstRun, "\(log)")
        }
    }
}
