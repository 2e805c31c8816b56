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
        return configuration
    }

    private func start(_ configuration: Configuration) throws -> RunningAPI {
        try RunningAPI(configuration: configuration,
                       logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)))
    }

    private func get(_ port: Int, _ path: String, method: String = "GET", body: [UInt8] = []) throws -> HTTPResponse {
        try HTTPClient().send(HTTPRequest(method: method, url: "http://127.0.0.1:\(port)\(path)", body: body,
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
            "REDIS_URL": try TestEnvironment.redisURL(), "PATH": "/usr/bin:/bin",
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
