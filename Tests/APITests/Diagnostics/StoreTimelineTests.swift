import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Entitlement changes from store notifications on the buyer's timeline, and the store-notification path end to end
/// (issue 18): an App Store purchase made with the buyer's app account token identifies the buyer.
@Suite struct StoreTimelineTests {
    @Test func anAppStorePurchaseRenewalAndRefundAreLinesAndTheVerdictIsTheStorePath() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let created = fixture.apps.send(.post, "/s2s/v1/users", key: fixture.tenant.key,
                                        body: #"{"email":"store-buyer@example.com"}"#)
        let guid = try #require(jsonObject(created)["guid"] as? String, "\(bodyText(created))")
        let token = fixture.appAccountToken(guid)
        for (type, expires) in [("SUBSCRIBED", Int64(1_893_456_000_000)), ("DID_RENEW", 1_896_134_400_000),
                                ("REFUND", 1_896_134_400_000)] {
            let answer = fixture.post("apple", token: app.token, body: AppleIntakeTests.notification(
                type, token: token, expiresDate: expires))
            #expect(answer.status == 200, "\(type): \(bodyText(answer))")
        }
        let timeline = fixture.apps.send(.get, "/s2s/v1/users/\(guid)/timeline", key: fixture.tenant.key)
        #expect(timeline.status == 200, "\(bodyText(timeline))")
        let lines = DiagnosticsWorld.lines(timeline)
        #expect(lines.contains("PaymentRecorded: Payment recorded from an App Store notification: pro.monthly, "
            + "1099 USD (minor units)."), "\(lines)")
        #expect(lines.contains("PaymentRenewed: Store renewed the subscription until 2030-02-01T00:00:00.000Z."))
        #expect(lines.contains("PaymentRefunded: Payment refunded: the entitlement is revoked."))
        let verdict = DiagnosticsWorld.verdict(timeline)
        #expect(verdict["identified"] == "1" && verdict["path"] == "storeNotification", "\(verdict)")
        // Another organization's key does not see this buyer's timeline.
        let other = try fixture.apps.tenants.tenant()
        #expect(fixture.apps.send(.get, "/s2s/v1/users/\(guid)/timeline", key: other.key).status == 404)
    }

    @Test func anAppStoreExpiryIsALineOfTheBuyerAndOfThePaymentBesideTheExpiredEntitlement() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let guid = fixture.buyer()
        let token = fixture.appAccountToken(guid)
        for type in ["SUBSCRIBED", "EXPIRED"] {
            let answer = fixture.post("apple", token: app.token,
                                      body: AppleIntakeTests.notification(type, token: token))
            #expect(answer.status == 200, "\(type): \(bodyText(answer))")
        }
        let entitlement = fixture.entitlements(guid).first
        #expect(entitlement?["status"] as? String == "expired")
        let paymentId = try #require(entitlement?["paymentId"] as? String)
        let expired = "PaymentExpired: Store reported the subscription expired."
        let buyer = fixture.apps.send(.get, "/s2s/v1/users/\(guid)/timeline", key: fixture.tenant.key)
        #expect(DiagnosticsWorld.lines(buyer).contains(expired), "\(DiagnosticsWorld.lines(buyer))")
        let payment = fixture.apps.send(.get, "/s2s/v1/payments/\(paymentId)/timeline", key: fixture.tenant.key)
        #expect(payment.status == 200 && jsonObject(payment)["guid"] as? String == guid, "\(bodyText(payment))")
        #expect(DiagnosticsWorld.lines(payment).suffix(1) == [expired])
        let entry = (jsonObject(payment)["entries"] as? [[String: Any]])?.last
        #expect(entry?["paymentId"] as? String == paymentId)
        // The buyer stays identified: an expiry ends the entitlement, not the handoff.
        #expect(DiagnosticsWorld.verdict(payment)["identified"] == "1")
        let other = try fixture.apps.tenants.tenant()
        #expect(fixture.apps.send(.get, "/s2s/v1/payments/\(paymentId)/timeline", key: other.key).status == 404)
    }

    @Test func aRevenueCatExpiryAndTransferAreLinesAndThePaymentsHistoryFollowsIt() throws {
        let fixture = try StoreFixture.migrated()
        let token = try RevenueCatIntakeTests().app(fixture)
        let auth = [("authorization", RevenueCatIntakeTests.secret)]
        let from = fixture.buyer(), to = fixture.buyer()
        let past = Int64(Date().timeIntervalSince1970 - 60) * 1000
        for body in [RevenueCatIntakeTests.event("INITIAL_PURCHASE", user: from),
                     RevenueCatIntakeTests.event("EXPIRATION", user: from, extra: #","expiration_at_ms":\#(past)"#),
                     #"{"event":{"id":"t1","type":"TRANSFER","transferred_from":["\#(from)"],"#
                        + #""transferred_to":["\#(to)"]}}"#] {
            #expect(fixture.post("revenuecat", token: token, body: body, headers: auth).status == 200)
        }
        func timeline(_ path: String) -> Response {
            fixture.apps.send(.get, "/s2s/v1/\(path)/timeline", key: fixture.tenant.key)
        }
        // A payment's history follows the payment: the buyer who holds it now sees its expiry too.
        let before = DiagnosticsWorld.lines(timeline("users/\(from)"))
        #expect(before.contains("PaymentTransferred: Store moved the purchase to another buyer."), "\(before)")
        #expect(!before.contains { $0.hasPrefix("PaymentExpired") }, "\(before)")
        let after = DiagnosticsWorld.lines(timeline("users/\(to)"))
        #expect(after.contains("PaymentExpired: Store reported the subscription expired."), "\(after)")
        #expect(after.contains("PaymentTransferred: Store moved the purchase to this buyer."), "\(after)")
        // The payment's own timeline is the new holder's, with the expiry at the instant the store gave.
        let paymentId = try #require(fixture.entitlements(to).first?["paymentId"] as? String)
        let payment = timeline("payments/\(paymentId)")
        #expect(jsonObject(payment)["guid"] as? String == to, "\(bodyText(payment))")
        let entries = (jsonObject(payment)["entries"] as? [[String: Any]]) ?? []
        let expiry = entries.first { $0["event"] as? String == "PaymentExpired" }
        #expect(expiry?["at"] as? String == PaymentFields.text(Date(timeIntervalSince1970: Double(past) / 1000)))
        #expect(entries.map { $0["event"] as? String }.suffix(2) == ["PaymentExpired", "PaymentTransferred"])
        #expect(fixture.entitlements(to).count == 1 && fixture.entitlements(from).isEmpty)
    }
}
