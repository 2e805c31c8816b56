import API
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// `POST /v1/m/store/apple/{token}` end to end (issue 14): verified, recorded once, applied to the buyer the
/// `appAccountToken` names; refused ones leave no trace.
@Suite struct AppleIntakeTests {
    static func body(_ jws: String) -> String { #"{"signedPayload":"\#(jws)"}"# }

    /// A notification of `type` with a transaction bought with `token`, signed with the test chain.
    static func notification(_ type: String, token: String, uuid: String = UUID().uuidString.lowercased(),
                             originalTransactionId: String = "2000000100",
                             expiresDate: Int64 = 1_896_134_400_000, bundleId: String = "com.example") -> String {
        let transaction = AppleSigner.test.sign(ApplePayloads.transaction(
            bundleId: bundleId, appAccountToken: token, originalTransactionId: originalTransactionId,
            expiresDate: expiresDate))
        return body(AppleSigner.test.sign(ApplePayloads.notification(type: type, uuid: uuid, bundleId: bundleId,
                                                                    transaction: transaction)))
    }

    @Test func aPurchaseWithHandoffsTokenBecomesTheBuyersPaymentAndRenewalsExtendIt() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let guid = fixture.buyer()
        let token = fixture.appAccountToken(guid)
        let first = fixture.post("apple", token: app.token, body: Self.notification("SUBSCRIBED", token: token,
                                                                                      expiresDate: 1_893_456_000_000))
        #expect(first.status == 200 && first.body.isEmpty)
        var entitlements = fixture.entitlements(guid)
        #expect(entitlements.count == 1)
        #expect(entitlements.first?["paymentId"] as? String == "2000000100")
        #expect(entitlements.first?["productId"] as? String == "pro.monthly")
        #expect(entitlements.first?["expiresAt"] as? String == "2030-01-01T00:00:00.000Z")
        #expect(entitlements.first?["status"] as? String == "active")
        let recorded = try fixture.events("PaymentRecorded")
        #expect(recorded.count == 1 && recorded[0].data.contains(#""source": "apple""#))
        #expect(recorded[0].data.contains(#""amount": 1099"#) && recorded[0].data.contains(#""currency": "USD""#))

        #expect(fixture.post("apple", token: app.token, body: Self.notification("DID_RENEW", token: token)).status
            == 200)
        entitlements = fixture.entitlements(guid)
        #expect(entitlements.first?["expiresAt"] as? String == "2030-02-01T00:00:00.000Z")
        #expect(try fixture.events("PaymentRenewed").count == 1)

        #expect(fixture.post("apple", token: app.token, body: Self.notification("REFUND", token: token)).status
            == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "refunded")
        // A renewal after the refund does not revive it.
        #expect(fixture.post("apple", token: app.token, body: Self.notification(
            "DID_RENEW", token: token, expiresDate: 1_900_000_000_000)).status == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "refunded")
        #expect(try fixture.events("StoreNotificationReceived").count == 4)
    }

    @Test func expiryEndsTheEntitlement() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let guid = fixture.buyer()
        let token = fixture.appAccountToken(guid)
        #expect(fixture.post("apple", token: app.token, body: Self.notification("SUBSCRIBED", token: token)).status
            == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "active")
        #expect(fixture.post("apple", token: app.token, body: Self.notification("EXPIRED", token: token)).status
            == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "expired")
        #expect(try fixture.events("PaymentExpired").count == 1)
    }

    @Test func aTransactionWithoutAKnownTokenIsRecordedAndChangesNoEntitlement() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let unknown = UUID().uuidString.lowercased()
        #expect(fixture.post("apple", token: app.token, body: Self.notification("SUBSCRIBED", token: unknown)).status
            == 200)
        let received = try fixture.events("StoreNotificationReceived")
        #expect(received.count == 1 && received[0].data.contains(#""verified": true"#))
        #expect(!received[0].data.contains(#""guid""#))
        #expect(try fixture.events("PaymentRecorded").isEmpty)
        // A token minted in another organization names nobody here.
        let other = StoreFixture(apps: fixture.apps, tenant: try fixture.apps.tenants.tenant())
        let foreignGuid = other.buyer()
        let foreign = other.appAccountToken(foreignGuid)
        #expect(fixture.post("apple", token: app.token, body: Self.notification("SUBSCRIBED", token: foreign,
                                                                                 originalTransactionId: "2000000200"))
            .status == 200)
        #expect(try fixture.events("PaymentRecorded").isEmpty)
        #expect(try other.events("StoreNotificationReceived").isEmpty)
        #expect(other.entitlements(foreignGuid).isEmpty)
    }

    @Test func theFixtureTestNotificationIsRecordedOnly() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let response = fixture.post("apple", token: app.token,
                                    body: Self.body(AppleFixtures.signedData("testNotification")))
        #expect(response.status == 200)
        let received = try fixture.events("StoreNotificationReceived")
        #expect(received.count == 1 && received[0].data.contains(#""notificationType": "TEST""#))
        #expect(received[0].data.contains(#""environment": "Sandbox""#))
        #expect(received[0].stream == "store-\(app.id)")
    }

    @Test func refusalsRecordNothing() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let token = fixture.appAccountToken(fixture.buyer())
        let valid = AppleSigner.test.sign(ApplePayloads.notification(type: "TEST"))
        let parts = valid.split(separator: ".").map(String.init)
        let cases: [(String, Int)] = [
            ("", 400), ("{}", 400), (#"{"signedPayload":5}"#, 400), ("[]", 400),
            (Self.body("a.b"), 400), (Self.body(AppleFixtures.signedData("legacyTransaction")), 400),
            (Self.body(AppleFixtures.signedData("missingX5CHeaderClaim")), 400),
            (Self.body(parts[0] + "." + parts[1] + "." + Self.flipped(parts[2])), 401),
            (Self.body(AppleFixtures.signedData("wrongBundleId")), 401),
            (Self.notification("SUBSCRIBED", token: token, bundleId: "com.example.other"), 401),
            (Self.body(AppleSigner.rogue.sign(ApplePayloads.notification(type: "TEST"))), 401),
            (Self.body(AppleSigner.test.sign(ApplePayloads.notification(type: "TEST", environment: "Production",
                                                                        appAppleId: 1235))), 401),
        ]
        for (body, status) in cases {
            let response = fixture.post("apple", token: app.token, body: body)
            #expect(response.status == status, "\(body.prefix(60)) \(bodyText(response))")
            #expect(jsonObject(response)["statusCode"] as? Int == status)
        }
        #expect(try fixture.events("StoreNotificationReceived").isEmpty)
    }

    /// The base64url text with its first character changed (still valid base64url, another signature).
    static func flipped(_ text: String) -> String {
        (text.first == "A" ? "B" : "A") + text.dropFirst()
    }

    @Test func twentyConcurrentDeliveriesOfOneNotificationHaveOneEffect() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let guid = fixture.buyer()
        let body = Self.notification("SUBSCRIBED", token: fixture.appAccountToken(guid))
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let status = fixture.post("apple", token: app.token, body: body).status
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 20))
        #expect(try fixture.events("StoreNotificationReceived").count == 1)
        #expect(try fixture.events("PaymentRecorded").count == 1)
        #expect(fixture.entitlements(guid).count == 1)
    }

    @Test func unknownRotatedAndMalformedTokensAnswerTheSame404() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let body = Self.body(AppleFixtures.signedData("testNotification"))
        let rotated = fixture.apps.send(.post, "/s2s/v1/apps/\(app.id)/store-token", key: fixture.tenant.key)
        #expect(rotated.status == 200)
        let fresh = try #require(jsonObject(rotated)["storeToken"] as? String)
        let misses = [app.token, String(repeating: "A", count: 32), "short", String(repeating: "A", count: 33)]
            .map { fixture.post("apple", token: $0, body: body) }
        for miss in misses {
            #expect(miss.status == 404)
            #expect(miss.body == misses[0].body)
        }
        #expect(fixture.post("apple", token: fresh, body: body).status == 200)
        #expect(try fixture.events("StoreNotificationReceived").count == 1)
    }

    @Test func aTokenOverItsRateIsRefusedWithRetryAfter() throws {
        let fixture = try StoreFixture.migrated(storeLimit: TestIdentity.uniqueLimit(count: 3))
        let app = try fixture.appleApp()
        let statuses = (0..<5).map { _ in fixture.post("apple", token: app.token, body: "{}") }
        #expect(statuses.map(\.status) == [400, 400, 400, 429, 429])
        #expect(statuses[3].headers["retry-after"] != nil)
    }

    @Test func eachStoreURLHasTheBodyLimitOfWhatItsStoreSends() throws {
        let fixture = try StoreFixture.migrated()
        let token = String(repeating: "A", count: 32)
        let limits = ["apple", "google", "revenuecat"].map {
            fixture.apps.api.bodyLimit(for: .post, path: "/v1/m/store/\($0)/\(token)")
        }
        #expect(limits == [256 * 1024, 64 * 1024, 256 * 1024])
    }
}
