import API
import Commands
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import Testing
import TestSupport

/// The API's edge driven without a socket: routing, error mapping, request ids, metrics.
@Suite struct APIEdgeTests {
    private func responder(logTo descriptor: Int32 = -1) throws -> APIResponder {
        let environment = Environment(
            model: WriteModel(
                pool: Pool(configuration: PostgresConfiguration(url: try TestEnvironment.databaseURL(), poolSize: 2)),
                secrets: nil),
            redis: RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 2)),
            metrics: Metrics(),
            logger: Logger(level: .info, descriptor: descriptor == -1 ? open("/dev/null", O_WRONLY) : descriptor),
            defaultBodyLimit: 1024, authFailureLimit: TestIdentity.uniqueLimit(count: 20))
        return APIResponder(environment: environment)
    }

    private func request(_ method: HTTPServer.Method, _ path: String, body: [UInt8] = [],
                         headers: [(String, String)] = []) -> Request {
        Request(method: method, path: path, query: [:], headers: Headers(headers), body: body,
                clientIP: "203.0.113.7", remoteAddress: "203.0.113.7")
    }

    private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func healthzAnswers200WithAJSONBodyAndARequestId() throws {
        let response = try responder().respond(to: request(.get, "/healthz"))
        #expect(response.status == 200)
        #expect(text(response) == #"{"status":"ok"}"#)
        #expect(response.headers["Content-Type"] == "application/json")
        let id = try #require(response.headers["X-Request-Id"])
        #expect(id.count == 22)
    }

    @Test func twoRequestsGetDifferentRequestIdsAndAWellFormedIncomingOneIsKept() throws {
        let api = try responder()
        let first = api.respond(to: request(.get, "/healthz")).headers["X-Request-Id"]
        let second = api.respond(to: request(.get, "/healthz")).headers["X-Request-Id"]
        #expect(first != second)
        let kept = api.respond(to: request(.get, "/healthz", headers: [("X-Request-Id", "lb-1234abcd")]))
        #expect(kept.headers["X-Request-Id"] == "lb-1234abcd")
        let replaced = api.respond(to: request(.get, "/healthz", headers: [("X-Request-Id", "bad id\r\nX: y")]))
        #expect(replaced.headers["X-Request-Id"] != "bad id\r\nX: y")
    }

    @Test func anUnknownPathAnswers404InTheErrorShape() throws {
        let response = try responder().respond(to: request(.get, "/nope"))
        #expect(response.status == 404)
        #expect(text(response) == #"{"statusCode":404,"code":"NOT_FOUND","message":"no route for this path"}"#)
        #expect(response.headers["X-Request-Id"] != nil)
    }

    @Test func aWrongMethodAnswers405WithAllow() throws {
        let response = try responder().respond(to: request(.post, "/healthz"))
        #expect(response.status == 405)
        let allow = try #require(response.headers["Allow"])
        #expect(allow.contains("GET"))
        #expect(text(response)
            == #"{"statusCode":405,"code":"METHOD_NOT_ALLOWED","message":"this path takes \#(allow)"}"#)
    }

    @Test func opsRoutesTakeNoBodyAndUnknownRoutesTheDefaultLimit() throws {
        let api = try responder()
        #expect(api.bodyLimit(for: .get, path: "/healthz") == 0)
        #expect(api.bodyLimit(for: .post, path: "/anything") == 1024)
        let response = api.payloadTooLarge(request(.get, "/healthz"))
        #expect(response.status == 413)
        #expect(text(response)
            == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
                #""message":"the body is larger than the 0 bytes this endpoint accepts"}"#)
    }

    @Test func readyzAnswers200WhenPostgresAndRedisAnswer() throws {
        let response = try responder().respond(to: request(.get, "/readyz"))
        #expect(response.status == 200)
        #expect(text(response) == #"{"status":"ready","postgres":"up","redis":"up"}"#)
    }

    @Test func metricsCountRequestsByRoutePatternMethodAndStatus() throws {
        let api = try responder()
        _ = api.respond(to: request(.get, "/healthz"))
        _ = api.respond(to: request(.get, "/healthz"))
        _ = api.respond(to: request(.get, "/missing/path"))
        let response = MetricsResponder(metrics: api.environment.metrics).respond(to: request(.get, "/metrics"))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        let body = text(response)
        #expect(body.contains(#"handoff_http_requests_total{route="/healthz",method="GET",status="200"} 2"#))
        #expect(body.contains(#"handoff_http_requests_total{route="unmatched",method="GET",status="404"} 1"#))
        #expect(body.contains(#"handoff_http_request_duration_seconds_count{route="/healthz"} 2"#))
        #expect(body.contains(#"handoff_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 2"#))
        #expect(!body.contains("/missing/path"))
    }

    @Test func metricsAreNotAPublicRouteAndTheMetricsListenerServesNothingElse() throws {
        let public404 = try responder().respond(to: request(.get, "/metrics"))
        #expect(public404.status == 404)
        #expect(text(public404) == #"{"statusCode":404,"code":"NOT_FOUND","message":"no route for this path"}"#)
        let metrics = MetricsResponder(metrics: Metrics())
        #expect(metrics.respond(to: request(.get, "/healthz")).status == 404)
        #expect(metrics.respond(to: request(.post, "/metrics")).status == 405)
        #expect(metrics.bodyLimit(for: .get, path: "/metrics") == 0)
    }

    @Test func theOpenAPIDocumentIsJSONAndListsEveryRoute() throws {
        let response = try responder().respond(to: request(.get, "/openapi.json"))
        #expect(response.status == 200)
        let document = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: Any])
        #expect(Set(paths.keys) == ["/healthz", "/readyz", "/openapi.json", "/docs", "/docs/redoc.standalone.js",
                                   "/s2s/v1/project",
                                   "/s2s/v1/users", "/public/paywall/buyer", "/s2s/v1/payments",
                                   "/s2s/v1/payments/{paymentId}/refund", "/s2s/v1/users/{guid}",
                                   "/s2s/v1/users/{guid}/entitlements", "/public/entitlements", "/s2s/v1/events",
                                   "/done/{pageToken}", "/public/handoff/fingerprint",
                                   "/public/handoff/resolve-by-fingerprint", "/public/handoff/resolve",
                                   "/public/handoff/email-recovery/request", "/s2s/v1/apps", "/s2s/v1/apps/{appId}",
                                   "/s2s/v1/apps/{appId}/store-token", "/s2s/v1/apps/{appId}/destinations",
                                   "/s2s/v1/apps/{appId}/destinations/{destinationId}",
                                   "/s2s/v1/apps/{appId}/deliveries", "/public/app-account-token",
                                   "/v1/m/store/apple/{token}", "/v1/m/store/google/{token}",
                                   "/v1/m/store/revenuecat/{token}", "/v1/app-store/assn/{surfaceId}",
                                   "/s2s/v1/campaigns", "/s2s/v1/affiliates", "/a/{refCode}", "/v1/app-store/bind",
                                   "/s2s/v1/affiliates/{affiliateId}/statement",
                                   "/s2s/v1/audit/heads", "/s2s/v1/audit/keys", "/s2s/v1/reports/payments",
                                   "/s2s/v1/users/{guid}/erasure", "/s2s/v1/erasures",
                                   "/s2s/v1/users/{guid}/timeline", "/s2s/v1/payments/{paymentId}/timeline",
                                   "/s2s/v1/reports/handoff", "/s2s/v1/dashboard-links", "/dashboard/{token}",
                                   "/v1/m/config/{pk}", "/v1/m/batch",
                                   "/v1/m/r", "/s2s/v1/apps/{appId}/recordings",
                                   "/v1/m/lead", "/s2s/v1/apps/{appId}/leads",
                                   "/v1/m/erase", "/v1/projects/{project}/app-users/erase",
                                   "/v1/m/install", "/s2s/v1/apps/{appId}/installs",
                                   "/s2s/v1/links", "/v1/go/{ref}",
                                   "/s2s/v1/apps/{appId}/conversions", "/s2s/v1/apps/{appId}/sessions",
                                   "/s2s/v1/apps/{appId}/export",
                                   "/s2s/v1/apps/{appId}/recordings/replay-links", "/replay/{token}",
                                   "/v1/m/postbacks/{kind}/{endpoint}", "/v1/m/postbacks/{kind}/{endpoint}/",
                                   "/s2s/v1/apps/{appId}/postbacks",
                                   "/replay/{token}/events", "/replay-player.js", "/replay-player.css",
                                   "/replay/{token}/assets/{sha}",
                                   "/s2s/v1/proxy-keys", "/s2s/v1/proxy-keys/{proxyKeyId}"])
        #expect(Set(paths.keys) == Set(Route.router.patterns))
        let info = try #require(document?["info"] as? [String: Any])
        #expect((info["description"] as? String)?.contains("METRICS_ADDRESS, default 127.0.0.1:9464") == true)
    }

    @Test func everyRequestWritesOneJSONLogLineWithoutTheClientIP() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let api = try responder(logTo: descriptors[1])
        _ = api.respond(to: request(.get, "/healthz?secret=1"))
        close(descriptors[1])
        let handle = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        let output = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(line["msg"] as? String == "request")
        #expect(line["method"] as? String == "GET")
        #expect(line["route"] as? String == "unmatched")
        #expect(line["status"] as? Int == 404)
        #expect(line["request_id"] is String)
        #expect(line["duration_ms"] is Double || line["duration_ms"] is Int)
        #expect(line["time"] is String)
        #expect(!output.contains("203.0.113.7"))
        #expect(!output.contains("secret"))
    }
}
