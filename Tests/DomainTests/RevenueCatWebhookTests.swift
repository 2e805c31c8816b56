import Domain
import Foundation
import Testing

struct RevenueCatWebhookTests {
    static let digest: @Sendable (String) -> String = { _ in String(repeating: "0", count: 64) }
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func body(_ event: String) -> [UInt8] { Array(#"{"api_version":"1.0","event":{\#(event)}}"#.utf8) }

    static func parse(_ event: String) throws -> RevenueCatWebhook {
        try RevenueCatWebhook.parse(body(event)).get()
    }

    @Test func aPurchaseActivatesUntilItsExpiration() throws {
        let hook = try Self.parse("""
            "id":"e1","type":"INITIAL_PURCHASE","app_user_id":"abc123def456","aliases":["x","abc123def456"],
            "product_id":"pro","entitlement_ids":["premium"],"expiration_at_ms":1800086400000,
            "original_transaction_id":"1000000001","transaction_id":"1000000002","price_in_purchased_currency":9.99,
            "currency":"EUR","environment":"SANDBOX"
            """)
        #expect(hook.buyerCandidates == ["abc123def456", "x"])
        #expect(hook.environment == "SANDBOX")
        let id = try PaymentID.parse("1000000001").get()
        #expect(hook.effect(now: Self.now, digest: Self.digest) == .activate(StorePurchase(
            paymentId: id, productId: "pro", entitlement: "premium", amount: 999, currency: "EUR",
            expiresAt: Date(timeIntervalSince1970: 1_800_086_400))))
    }

    @Test func aNonRenewingPurchaseIsItsOwnTransaction() throws {
        let hook = try Self.parse("""
            "id":"e2","type":"NON_RENEWING_PURCHASE","app_user_id":"u","product_id":"coins",
            "original_transaction_id":"1","transaction_id":"2"
            """)
        guard case .activate(let purchase) = hook.effect(now: Self.now, digest: Self.digest) else {
            Issue.record("not an activation")
            return
        }
        #expect(purchase.paymentId.text == "2")
        #expect(purchase.expiresAt == nil)
        #expect(purchase.currency == "XXX" && purchase.amount == 0)
    }

    @Test func expirationRefundAndTransferAreMapped() throws {
        let id = try PaymentID.parse("77").get()
        let expired = try Self.parse("""
            "id":"e3","type":"EXPIRATION","original_transaction_id":"77","expiration_at_ms":1800000000000
            """)
        #expect(expired.effect(now: Self.now, digest: Self.digest) == .expire(paymentId: id, at: Self.now))
        let refunded = try Self.parse("""
            "id":"e4","type":"CANCELLATION","cancel_reason":"CUSTOMER_SUPPORT","original_transaction_id":"77",
            "event_timestamp_ms":1800000000000
            """)
        #expect(refunded.effect(now: Self.now, digest: Self.digest) == .revoke(paymentId: id, at: Self.now))
        let cancelled = try Self.parse("""
            "id":"e5","type":"CANCELLATION","cancel_reason":"UNSUBSCRIBE","original_transaction_id":"77"
            """)
        #expect(cancelled.effect(now: Self.now, digest: Self.digest) == StoreEffect.none)
        let moved = try Self.parse("""
            "id":"e6","type":"TRANSFER","transferred_from":["a1"],"transferred_to":["b1","b2"]
            """)
        #expect(moved.effect(now: Self.now, digest: Self.digest) == .transfer(from: ["a1"], to: "b1"))
        let other = try Self.parse(#""id":"e7","type":"BILLING_ISSUE","original_transaction_id":"77""#)
        #expect(other.effect(now: Self.now, digest: Self.digest) == StoreEffect.none)
    }

    @Test func malformedBodiesAreRefused() {
        for text in ["", "{}", #"{"event":{}}"#, #"{"event":{"id":"","type":"RENEWAL"}}"#,
                     #"{"event":{"id":"a","type":5}}"#, "[1]",
                     #"{"event":{"id":"\#(String(repeating: "a", count: 300))","type":"TEST"}}"#] {
            guard case .failure(.malformed) = RevenueCatWebhook.parse(Array(text.utf8)) else {
                Issue.record("accepted \(text.prefix(40))")
                continue
            }
        }
    }
}
