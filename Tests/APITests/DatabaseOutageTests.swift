import API
import Commands
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Every route class answers 503 with `Retry-After` while Postgres is really stopped, and serves again once it is
/// back (issue 12 §5): the database outage is never a 500.
@Suite(.serialized) struct DatabaseOutageTests {
    @Test func everyRouteClassAnswers503WithRetryAfterWhilePostgresIsDownAndServesAgainAfterItRestarts() throws {
        let postgres = try ScratchPostgres()
        let fixture = TenantFixture(database: try postgres.migratedDatabase())
        let tenant = try fixture.tenant(["--paywall-url", "https://pay.example.com/"])
        let api = try fixture.responder(publicBaseURL: "https://handoff.example.com")
        let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                              body: PaymentTests.body(guid: PaymentTests.guidA, paymentId: "pi_1")))
        #expect(paid.status == 200, "\(bodyText(paid))")
        let handoff = try #require(jsonObject(paid)["handoff"] as? [String: Any])
        let page = try #require((handoff["postPaymentUrl"] as? String)?.split(separator: "/").last)
        let code = try #require(handoff["code"] as? String)
        let requests: [(name: String, request: Request)] = [
            ("S2S read", s2sRequest(.get, "/s2s/v1/project", key: tenant.key)),
            ("S2S command", s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                       body: PaymentTests.body(guid: PaymentTests.guidA, paymentId: "pi_2"))),
            ("S2S feed", s2sRequest(.get, "/s2s/v1/events", key: tenant.key)),
            ("public read", publicRequest("/public/entitlements",
                                          query: ["projectId": tenant.project, "guid": PaymentTests.guidA])),
            ("public command", publicRequest("/public/handoff/resolve", query: ["code": code])),
            ("post-payment page", Request(method: .get, path: "/done/\(page)", headers: Headers([]))),
            ("readiness", Request(method: .get, path: "/readyz", headers: Headers([]))),
        ]

        try postgres.stop()
        for (name, request) in requests {
            let response = api.respond(to: request)
            #expect(response.status == 503, "\(name): \(response.status) \(bodyText(response))")
            #expect(response.headers["Retry-After"] != nil, "\(name) has no Retry-After")
            #expect(jsonObject(response)["code"] as? String == "SERVICE_UNAVAILABLE", "\(name): \(bodyText(response))")
        }

        try postgres.start()
        // A pooled connection cut by the stop fails once (503) and is replaced; the next request is served.
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)).status)
            if statuses.last == 200 { break }
        }
        #expect(statuses.last == 200, "after the restart: \(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "after the restart: \(statuses)")
        let entitlements = api.respond(to: publicRequest(
            "/public/entitlements", query: ["projectId": tenant.project, "guid": PaymentTests.guidA]))
        #expect(entitlements.status == 200, "\(bodyText(entitlements))")
        #expect(api.respond(to: publicRequest("/public/handoff/resolve", query: ["code": code])).status == 200)
    }

    @Test func aConflictThatOutlivedItsRetriesIsA503AndABugIsNot() {
        for kind in [PostgresError.Kind.deadlockDetected, .serializationFailure, .connectionLost, .poolTimeout] {
            let refusal = DatabaseOutage.refusal(for: PostgresError(kind: kind, message: "x"))
            #expect(refusal.map { APIError($0).status } == 503, "\(kind)")
        }
        for kind in [PostgresError.Kind.uniqueViolation, .other] {
            #expect(DatabaseOutage.refusal(for: PostgresError(kind: kind, message: "x")) == nil, "\(kind)")
        }
    }
}
