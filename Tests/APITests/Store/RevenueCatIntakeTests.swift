import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /v1/m/store/revenuecat/{token}` end to end (issue 14): the app's secret, dedupe by `event.id`, each event
/// type's effect on the buyer `app_user_id` (or an alias) names.
@Suite struct RevenueCatIntakeTests {
    static let secret = "Bearer rc-webhook-secret"

    static func event(_ type: String, id: String = UUID().uuidString, user: String, extra: String = "") -> String {
        #"{"api_version":"1.0","event":{"id":"\#(id)","type":"\#(type)","app_user_id":"\#(user)","# +
            #""aliases":["$RCAnonymousID:abc","\#(user)"],"product_id":"pro.yearly","entitlement_ids":["pro"],"# +
            #""original_transaction_id":"3000000001","transaction_id":"3000000009","currency":"EUR","# +
            #""price_in_purchased_currency":49.99,"environment":"PRODUCTION"\#(extra)}}"#
    }

    func app(_ fixture: StoreFixture) throws -> String {
        try fixture.app(#"{"platform":"ios","bundleId":"com.example.rc","revenuecatSecret":"\#(Self.secret)"}"#).token
    }

    @Test func onlyTheAppsSecretIsAcceptedAndRefusalsRecordNothing() throws {
        let fixture = try StoreFixture.migrated()
        let token = try app(fixture)
        let body = Self.event("INITIAL_PURCHASE", user: fixture.buyer())
        for headers in [[], [("authorization", "Bearer wrong")], [("authorization", Self.secret + " ")],
                        [("authorization", "bearer rc-webhook-secret")]] {
            let response = fixture.post("revenuecat", token: token, body: body, headers: headers)
            #expect(response.status == 401)
        }
        // An app without a secret takes no RevenueCat webhook.
        let bare = try fixture.app(#"{"platform":"ios","bundleId":"com.example.bare"}"#).token
        #expect(fixture.post("revenuecat", token: bare, body: body, headers: [("authorization", Self.secret)]).status
            == 401)
        for malformed in ["", "{}", #"{"event":{"id":"x"}}"#, "[]"] {
            #expect(fixture.post("revenuecat", token: token, body: malformed,
                                 headers: [("authorization", Self.secret)]).status == 400)
        }
        #expect(try fixture.events("StoreNotificationReceived").isEmpty)
    }

    @Test func eachEventTypeMovesTheEntitlementAndRepeatsChangeNothing() throws {
        let fixture = try StoreFixture.migrated()
        let token = try app(fixture)
        let guid = fixture.buyer()
        let auth = [("authorization", Self.secret)]
        let future = Int64(Date().timeIntervalSince1970 + 86400 * 30) * 1000
        let bought = Self.event("INITIAL_PURCHASE", id: "evt-1", user: guid, extra: #","expiration_at_ms":\#(future)"#)
        #expect(fixture.post("revenuecat", token: token, body: bought, headers: auth).status == 200)
        #expect(fixture.post("revenuecat", token: token, body: bought, headers: auth).status == 200)
        var entitlements = fixture.entitlements(guid)
        #expect(entitlements.count == 1)
        #expect(entitlements.first?["entitlement"] as? String == "pro")
        #expect(entitlements.first?["paymentId"] as? String == "3000000001")
        #expect(entitlements.first?["status"] as? String == "active")
        #expect(try fixture.events("StoreNotificationReceived").count == 1)
        #expect(try fixture.events("PaymentRecorded")[0].data.contains(#""amount": 4999"#))

        let later = future + 86400 * 365 * 1000
        #expect(fixture.post("revenuecat", token: token, body: Self.event(
            "RENEWAL", user: guid, extra: #","expiration_at_ms":\#(later)"#), headers: auth).status == 200)
        #expect(try fixture.events("PaymentRenewed").count == 1)

        let past = Int64(Date().timeIntervalSince1970 - 60) * 1000
        #expect(fixture.post("revenuecat", token: token, body: Self.event(
            "EXPIRATION", user: guid, extra: #","expiration_at_ms":\#(past)"#), headers: auth).status == 200)
        entitlements = fixture.entitlements(guid)
        #expect(entitlements.first?["status"] as? String == "expired")

        #expect(fixture.post("revenuecat", token: token, body: Self.event(
            "UNCANCELLATION", user: guid, extra: #","expiration_at_ms":\#(later + 1000)"#), headers: auth).status
            == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "active")

        // A cancellation that is not a refund changes nothing; a customer-support one refunds.
        #expect(fixture.post("revenuecat", token: token, body: Self.event(
            "CANCELLATION", user: guid, extra: #","cancel_reason":"UNSUBSCRIBE""#), headers: auth).status == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "active")
        #expect(fixture.post("revenuecat", token: token, body: Self.event(
            "CANCELLATION", user: guid, extra: #","cancel_reason":"CUSTOMER_SUPPORT""#), headers: auth).status == 200)
        #expect(fixture.entitlements(guid).first?["status"] as? String == "refunded")
        // Others are recorded only.
        #expect(fixture.post("revenuecat", token: token, body: Self.event("BILLING_ISSUE", user: guid),
                             headers: auth).status == 200)
        #expect(try fixture.events("StoreNotificationReceived").count == 7)
    }

    @Test func anAliasNamesTheBuyerAndAnUnknownUserChangesNothing() throws {
        let fixture = try StoreFixture.migrated()
        let token = try app(fixture)
        let auth = [("authorization", Self.secret)]
        let guid = fixture.buyer()
        let body = #"{"event":{"id":"a1","type":"NON_RENEWING_PURCHASE","app_user_id":"$RCAnonymousID:x","# +
            #""aliases":["$RCAnonymousID:x","\#(guid)"],"product_id":"lifetime","transaction_id":"4000000001"}}"#
        #expect(fixture.post("revenuecat", token: token, body: body, headers: auth).status == 200)
        #expect(fixture.entitlements(guid).first?["paymentId"] as? String == "4000000001")
        #expect(fixture.entitlements(guid).first?["expiresAt"] is NSNull)
        let stranger = Self.event("INITIAL_PURCHASE", user: "not-a-buyer-here")
        #expect(fixture.post("revenuecat", token: token, body: stranger, headers: auth).status == 200)
        #expect(try fixture.events("PaymentRecorded").count == 1)
        // A buyer of another organization is nobody here.
        let other = StoreFixture(apps: fixture.apps, tenant: try fixture.apps.tenants.tenant())
        let foreign = other.buyer()
        #expect(fixture.post("revenuecat", token: token, body: Self.event("INITIAL_PURCHASE", user: foreign),
                             headers: auth).status == 200)
        #expect(try fixture.events("PaymentRecorded").count == 1)
        #expect(other.entitlements(foreign).isEmpty)
    }

    @Test func aTransferMovesThePaymentsToTheNewBuyer() throws {
        let fixture = try StoreFixture.migrated()
        let token = try app(fixture)
        let auth = [("authorization", Self.secret)]
        let from = fixture.buyer(), to = fixture.buyer()
        #expect(fixture.post("revenuecat", token: token, body: Self.event("INITIAL_PURCHASE", user: from),
                             headers: auth).status == 200)
        let transfer = #"{"event":{"id":"t1","type":"TRANSFER","transferred_from":["\#(from)"],"# +
            #""transferred_to":["\#(to)"]}}"#
        #expect(fixture.post("revenuecat", token: token, body: transfer, headers: auth).status == 200)
        #expect(fixture.entitlements(from).isEmpty)
        #expect(fixture.entitlements(to).first?["paymentId"] as? String == "3000000001")
        #expect(try fixture.events("PaymentTransferred").count == 1)
    }
}
