@testable import API
import HTTPServer
import Testing
import TestSupport

/// The refusals of `POST /public/handoff/email-recovery/request`: malformed and oversized bodies, the per-IP limit,
/// Redis down.
@Suite struct EmailRecoveryLimitTests {
    typealias Flow = EmailRecoveryFlow

    @Test func malformedBodiesAre400NamingTheFieldAndAnOversizedOneIs413() throws {
        let flow = try Flow()
        let cases: [(String, String)] = [
            (#"{"email":"a@example.com"}"#, "field 'projectId' is required"),
            (#"{"projectId":"\#(flow.tenant.project)"}"#, "field 'email' is required"),
            (#"{"projectId":"nope","email":"a@example.com"}"#, "field 'projectId'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"not-an-address"}"#, "field 'email'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"a@example.com\r\nBcc: b@example.com"}"#,
             "field 'email'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"a@example.com","guid":"x"}"#, "field 'guid'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":5}"#, "field 'email' must be a string"),
            ("not json", "not valid JSON"),
        ]
        for (index, (body, message)) in cases.enumerated() {
            let response = flow.request(body, ip: "198.51.100.\(100 + index)")
            #expect(response.status == 400, "\(body)")
            let json = jsonObject(response)
            #expect(json["statusCode"] as? Int == 400)
            #expect((json["message"] as? String)?.contains(message) == true, "\(body) → \(bodyText(response))")
        }
        let limit = APIResponder(environment: flow.api.environment).bodyLimit(for: .post, path: Flow.path)
        #expect(limit == 4096)
        let oversized = flow.api.payloadTooLarge(Request(
            method: .post, path: Flow.path, query: [:], headers: Headers([]), body: [], clientIP: "198.51.100.99",
            remoteAddress: "198.51.100.99"))
        #expect(oversized.status == 413)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
    }

    @Test func theSixthRequestFromOneIPWithin15MinutesIs429() throws {
        // The limit the API really uses: 5 per 15 minutes per IP, failing closed.
        #expect(Environment.defaultEmailRecoveryLimit
                == RateLimit.perWindow(name: "email-recovery", count: 5, seconds: 900, onFailure: .closed))
        let flow = try Flow()
        for _ in 0..<5 {
            #expect(flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.77").status == 204)
        }
        let refused = flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.77")
        #expect(refused.status == 429)
        #expect(Int(refused.headers["Retry-After"] ?? "") ?? 0 > 0)
        #expect(jsonObject(refused)["statusCode"] as? Int == 429)
        // Another IP has its own budget.
        #expect(flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.78").status == 204)
    }

    @Test func withRedisDownTheEndpointFailsClosedWith503() throws {
        let port = try Shell.freePort()
        let flow = try Flow(apiRedisURL: "redis://127.0.0.1:\(port)")
        let response = flow.request(flow.body(email: "someone@example.com"))
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] != nil)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
    }
}
