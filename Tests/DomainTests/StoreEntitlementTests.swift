import Domain
import Foundation
import Testing

struct StoreEntitlementTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let id = try! PaymentID.parse("1000000123456789").get()

    static func purchase(expiresAt: Date?) -> StorePurchase {
        StorePurchase(paymentId: id, productId: "pro.monthly", entitlement: "pro.monthly", amount: 999,
                      currency: "USD", expiresAt: expiresAt)
    }

    @Test func aNewPurchaseIsRecordedForAKnownBuyerOnly() {
        let purchase = Self.purchase(expiresAt: Self.now + 86400)
        #expect(StoreEntitlement.decide(.activate(purchase), stored: nil, guid: "abc123def456")
            == .record(purchase, guid: "abc123def456"))
        #expect(StoreEntitlement.decide(.activate(purchase), stored: nil, guid: nil) == nil)
    }

    @Test func aRenewalExtendsButNeverShortensOrRevivesARefund() {
        let later = Self.purchase(expiresAt: Self.now + 2 * 86400)
        let stored = StoreEntitlement.Stored(guid: "g1", expiresAt: Self.now + 86400, refunded: false)
        #expect(StoreEntitlement.decide(.activate(later), stored: stored, guid: nil)
            == .renew(paymentId: Self.id, expiresAt: Self.now + 2 * 86400))
        let earlier = Self.purchase(expiresAt: Self.now)
        #expect(StoreEntitlement.decide(.activate(earlier), stored: stored, guid: nil) == nil)
        var refunded = stored
        refunded.refunded = true
        #expect(StoreEntitlement.decide(.activate(later), stored: refunded, guid: nil) == nil)
    }

    @Test func expiryEndsAnEntitlementThatRunsLonger() {
        let stored = StoreEntitlement.Stored(guid: "g1", expiresAt: Self.now + 86400, refunded: false)
        #expect(StoreEntitlement.decide(.expire(paymentId: Self.id, at: Self.now), stored: stored, guid: nil)
            == .expire(paymentId: Self.id, at: Self.now))
        let lifetime = StoreEntitlement.Stored(guid: "g1", expiresAt: nil, refunded: false)
        #expect(StoreEntitlement.decide(.expire(paymentId: Self.id, at: Self.now), stored: lifetime, guid: nil)
            == .expire(paymentId: Self.id, at: Self.now))
        let over = StoreEntitlement.Stored(guid: "g1", expiresAt: Self.now - 1, refunded: false)
        #expect(StoreEntitlement.decide(.expire(paymentId: Self.id, at: Self.now), stored: over, guid: nil) == nil)
        #expect(StoreEntitlement.decide(.expire(paymentId: Self.id, at: Self.now), stored: nil, guid: "g1") == nil)
    }

    @Test func aRevocationRefundsOnce() {
        let stored = StoreEntitlement.Stored(guid: "g1", expiresAt: nil, refunded: false)
        #expect(StoreEntitlement.decide(.revoke(paymentId: Self.id, at: Self.now), stored: stored, guid: nil)
            == .refund(paymentId: Self.id, at: Self.now))
        var refunded = stored
        refunded.refunded = true
        #expect(StoreEntitlement.decide(.revoke(paymentId: Self.id, at: Self.now), stored: refunded, guid: nil) == nil)
        #expect(StoreEntitlement.decide(.revoke(paymentId: Self.id, at: Self.now), stored: nil, guid: "g1") == nil)
    }

    @Test func recordOnlyEffectsChangeNothing() {
        let stored = StoreEntitlement.Stored(guid: "g1", expiresAt: nil, refunded: false)
        #expect(StoreEntitlement.decide(.none, stored: stored, guid: "g1") == nil)
        #expect(StoreEntitlement.decide(.transfer(from: ["a"], to: "b"), stored: stored, guid: "g1") == nil)
    }

    @Test func pricesBecomeMinorUnitsByTheCurrencysDecimals() {
        #expect(StorePurchase.minorUnits(9.99, currency: "USD") == 999)
        #expect(StorePurchase.minorUnits(500, currency: "JPY") == 500)
        #expect(StorePurchase.minorUnits(1.2345, currency: "KWD") == 1235)
        #expect(StorePurchase.minorUnits(-1, currency: "USD") == nil)
        #expect(StorePurchase.minorUnits(.nan, currency: "USD") == nil)
        #expect(StorePurchase.minorUnits(milliunits: 9990, currency: "USD") == 999)
        #expect(StorePurchase.minorUnits(milliunits: 500_000, currency: "JPY") == 500)
    }

    @Test func oddStoreIdsStillNameOnePaymentEach() {
        let digest: (String) -> String = { _ in String(repeating: "ab", count: 32) }
        #expect(StorePurchase.paymentID("GPA.1234-5678", store: .revenuecat, digest: digest)?.text == "GPA.1234-5678")
        #expect(StorePurchase.paymentID("promo/1 2", store: .revenuecat, digest: digest)?.text
            == "revenuecat:" + String(repeating: "ab", count: 16))
        #expect(StorePurchase.paymentID("", store: .revenuecat, digest: digest) == nil)
    }
}
