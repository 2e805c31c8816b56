import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Conversions (issue 20): a `purchase` event is a hint; a store notification (RevenueCat here) or `POST
/// /s2s/v1/payments` confirms the same order id, in either order, once; `GET /s2s/v1/apps/{appId}/conversions`
/// counts the confirmed ones per day and install tier.
@Suite struct AppConversionTests {
    static let secret = "Bearer rc-conversion-secret"

    /// A stored batch of `inst` whose `purchase` event names `orderId`.
    static func batch(key: String, orderId: String, inst: String = "I-4F2A", session: String = "S-1") -> [UInt8] {
        Array(IngestBatchTests.batch(key: key, plat: "android", bid: IngestInstallTests.bid)
            .replacingOccurrences(of: "GPA.1", with: orderId).replacingOccurrences(of: "I-4F2A", with: inst)
            .replacingOccurrences(of: "S-1", with: session).utf8)
    }

    private func app(_ fixture: IngestFixture, tenant: (org: String, project: String, key: String)? = nil) throws
        -> IngestFixture.App
    {
        let tenant = try tenant ?? fixture.apps.tenants.tenant()
        let created = try fixture.apps.createApp(key: tenant.key, #"{"platform":"android","bundleId":""#
            + IngestInstallTests.bid + #"","revenuecatSecret":"\#(Self.secret)"}"#)
        return IngestFixture.App(appId: created["appId"] as? String ?? "", key: created["publishableKey"] as? String
            ?? "", storeToken: created["storeToken"] as? String ?? "", tenant: tenant)
    }

    private func pay(_ fixture: IngestFixture, key: String, orderId: String, amount: Int = 499) -> Response {
        let guid = jsonObject(fixture.api.respond(to: s2sRequest(
            .post, "/s2s/v1/users", key: key, body: #"{"externalId":"u-\#(UUID().uuidString)"}"#)))["guid"]
            as? String ?? ""
        return fixture.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: #"{"guid":"\#(guid)","#
            + #""paymentId":"\#(orderId)","amount":\#(amount),"currency":"EUR","productId":"pro.monthly","#
            + #""entitlement":"pro","expiresAt":null}"#))
    }

    private func conversions(_ fixture: IngestFixture, org: String) throws -> [[String: Any]] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT data::text AS data FROM events WHERE org_id = $1::uuid AND event_type = 'AppConversionConfirmed'
            ORDER BY org_seq
            """, [.text(org)]).rows.map {
            try JSONSerialization.jsonObject(with: Data(try $0.string("data").utf8)) as? [String: Any] ?? [:]
        }
    }

    private func read(_ fixture: IngestFixture, app: String, key: String, query: [String: String] = [:])
        -> Response
    {
        fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app)/conversions", query: query,
            headers: Headers([("Authorization", "Bearer " + key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    @Test func aHintConfirmedByAPaymentLaterIsOneConversionOfTheInstallsTier() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let install = IngestInstallTests.install(key: app.key, inst: "I-4F2A",
                                                 sources: #","link":"https://example.com/open/spring""#)
        #expect(bodyText(fixture.install(Array(install.utf8))) == #"{"ok":true,"tier":"link"}"#)
        #expect(jsonObject(fixture.batch(Self.batch(key: app.key, orderId: "GPA.3301-0001")))["stored"] as? Bool
                == true)
        // A hint alone is no conversion.
        #expect(try conversions(fixture, org: app.tenant.org).isEmpty)
        #expect((jsonObject(read(fixture, app: app.appId, key: app.tenant.key))["days"] as? [Any])?.isEmpty == true)
        #expect(pay(fixture, key: app.tenant.key, orderId: "GPA.3301-0001").status == 200)
        let recorded = try conversions(fixture, org: app.tenant.org)
        #expect(recorded.count == 1)
        #expect(recorded.first?["orderId"] as? String == "GPA.3301-0001")
        #expect(recorded.first?["source"] as? String == "payment")
        #expect(recorded.first?["amount"] as? Int == 499 && recorded.first?["currency"] as? String == "EUR")
        #expect(recorded.first?["appId"] as? String == app.appId && recorded.first?["sessionId"] as? String == "S-1")
        #expect((recorded.first?["installHash"] as? String)?.count == 64)
        // The same batch again, and a second purchase hint of the same order in another session: still one.
        #expect(fixture.batch(Self.batch(key: app.key, orderId: "GPA.3301-0001")).status == 200)
        #expect(fixture.batch(Self.batch(key: app.key, orderId: "GPA.3301-0001", session: "S-2")).status == 200)
        #expect(try conversions(fixture, org: app.tenant.org).count == 1)
        let answer = jsonObject(read(fixture, app: app.appId, key: app.tenant.key))
        let days = try #require(answer["days"] as? [[String: Any]])
        #expect(days.count == 1)
        #expect(days.first?["day"] as? String == String(RFC3339.format(Date().addingTimeInterval(-30)).prefix(10)))
        #expect(days.first?["tiers"] as? [String: Int] == ["referrer": 0, "apple_ads": 0, "link": 1, "identity": 0,
                                                           "organic": 0, "unknown": 0, "pending": 0])
        #expect(days.first?["total"] as? Int == 1 && days.first?["amounts"] as? [String: Int] == ["EUR": 499])
    }

    @Test func aStoreNotificationFirstThenTheHintIsOneConversionEvenWithoutAKnownBuyer() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let purchase = RevenueCatIntakeTests.event("INITIAL_PURCHASE", user: "rc-user-not-in-handoff")
            .replacingOccurrences(of: "3000000001", with: "3000000777")
        let notified = fixture.api.respond(to: Request(
            method: .post, path: "/v1/m/store/revenuecat/\(app.storeToken)", query: [:],
            headers: Headers([("content-type", "application/json"), ("authorization", Self.secret)]),
            body: Array(purchase.utf8), clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
        #expect(notified.status == 200)
        #expect(try conversions(fixture, org: app.tenant.org).isEmpty)
        #expect(jsonObject(fixture.batch(Self.batch(key: app.key, orderId: "3000000777")))["stored"] as? Bool == true)
        let recorded = try conversions(fixture, org: app.tenant.org)
        #expect(recorded.count == 1)
        #expect(recorded.first?["source"] as? String == "revenuecat" && recorded.first?["amount"] as? Int == 4999)
        #expect(recorded.first?["productId"] as? String == "pro.yearly")
        // No install was recorded for the hinting install: its tier reads as unknown.
        let days = jsonObject(read(fixture, app: app.appId, key: app.tenant.key))["days"] as? [[String: Any]]
        #expect((days?.first?["tiers"] as? [String: Int])?["unknown"] == 1)
        #expect(days?.first?["amounts"] as? [String: Int] == ["EUR": 4999])
    }

    @Test func anotherOrgsPaymentAMalformedOrderIdOrABlockedPurchaseConfirmNothing() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let other = try self.app(fixture)
        #expect(fixture.batch(Self.batch(key: app.key, orderId: "GPA.3301-0002")).status == 200)
        // The same order id paid in another organization confirms nothing here.
        #expect(pay(fixture, key: other.tenant.key, orderId: "GPA.3301-0002").status == 200)
        #expect(try conversions(fixture, org: app.tenant.org).isEmpty)
        #expect(try conversions(fixture, org: other.tenant.org).isEmpty)
        // An order id that is no payment id is not a hint.
        #expect(fixture.batch(Self.batch(key: app.key, orderId: "order 7", inst: "I-2")).status == 200)
        #expect(pay(fixture, key: app.tenant.key, orderId: "order7").status == 200)
        // A blocked purchase event is dropped before it can hint.
        let blocked = try fixture.admin(["ingest-settings", "--app", app.appId, "--blocked-events", "purchase"])
        #expect(blocked.status == .exited(0))
        #expect(fixture.batch(Self.batch(key: app.key, orderId: "GPA.3301-0003", inst: "I-3")).status == 200)
        #expect(pay(fixture, key: app.tenant.key, orderId: "GPA.3301-0003").status == 200)
        #expect(try conversions(fixture, org: app.tenant.org).isEmpty)
        // Another org's key does not see the app; a malformed range is named.
        let foreign = read(fixture, app: app.appId, key: other.tenant.key)
        #expect(foreign.status == 404 && !bodyText(foreign).contains(app.appId))
        let malformed = read(fixture, app: app.appId, key: app.tenant.key, query: ["from": "yesterday"])
        #expect(malformed.status == 400 && bodyText(malformed).contains("'from'"))
    }

    @Test func aHintAndItsPaymentArrivingAtOnceMakeExactlyOneConversion() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let orders = (1...6).map { "GPA.3301-1\($0)" }
        DispatchQueue.concurrentPerform(iterations: orders.count * 2) { index in
            let order = orders[index / 2]
            if index % 2 == 0 {
                _ = fixture.batch(Self.batch(key: app.key, orderId: order, inst: "I-\(order)", session: order))
            } else {
                _ = pay(fixture, key: app.tenant.key, orderId: order)
            }
        }
        let recorded = try conversions(fixture, org: app.tenant.org)
        #expect(recorded.count == orders.count)
        #expect(Set(recorded.compactMap { $0["orderId"] as? String }) == Set(orders))
    }
}
