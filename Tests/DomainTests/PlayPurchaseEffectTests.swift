import Domain
import Foundation
import Testing

struct PlayPurchaseEffectTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let purchase = PlayPurchaseEffect.Purchase(orderId: "GPA.1234-5678-9012-34567..3", productId: "pro",
                                                      expiresAt: now + 86400, amount: 499, currency: "EUR")
    static let id = try! PaymentID.parse("GPA.1234-5678-9012-34567").get()

    @Test func renewalsOfOneSubscriptionAreOnePayment() {
        #expect(PlayPurchaseEffect.paymentID(orderId: "GPA.1234-5678-9012-34567..0") == Self.id)
        #expect(PlayPurchaseEffect.paymentID(orderId: "GPA.1234-5678-9012-34567") == Self.id)
        #expect(PlayPurchaseEffect.paymentID(orderId: "") == nil)
    }

    @Test func purchasesAndRenewalsActivateUntilTheExpiry() {
        for type in [1, 2, 4, 7] {
            #expect(PlayPurchaseEffect.subscription(notificationType: type, purchase: Self.purchase, now: Self.now)
                == .activate(StorePurchase(paymentId: Self.id, productId: "pro", entitlement: "pro", amount: 499,
                                           currency: "EUR", expiresAt: Self.now + 86400)))
        }
    }

    @Test func expiryRevocationAndCancellation() {
        #expect(PlayPurchaseEffect.subscription(notificationType: 13, purchase: Self.purchase, now: Self.now)
            == .expire(paymentId: Self.id, at: Self.now))
        #expect(PlayPurchaseEffect.subscription(notificationType: 12, purchase: Self.purchase, now: Self.now)
            == .revoke(paymentId: Self.id, at: Self.now))
        #expect(PlayPurchaseEffect.subscription(notificationType: 3, purchase: Self.purchase, now: Self.now)
            == StoreEffect.none)
    }

    @Test func oneTimeProductsAreLifetimeAndVoidsRefund() {
        guard case .activate(let bought) = PlayPurchaseEffect.oneTime(notificationType: 1, purchase: Self.purchase)
        else {
            Issue.record("a one-time purchase does not activate")
            return
        }
        #expect(bought.expiresAt == nil)
        #expect(PlayPurchaseEffect.oneTime(notificationType: 2, purchase: Self.purchase) == StoreEffect.none)
        #expect(PlayPurchaseEffect.voided(orderId: "GPA.1234-5678-9012-34567..1", now: Self.now)
            == .revoke(paymentId: Self.id, at: Self.now))
    }

    @Test func aPurchaseWithoutAPriceIsRecordedWithoutCurrency() {
        var unpriced = Self.purchase
        unpriced.amount = nil
        guard case .activate(let bought) = PlayPurchaseEffect.subscription(notificationType: 4, purchase: unpriced,
                                                                           now: Self.now) else {
            Issue.record("no activation")
            return
        }
        #expect(bought.currency == "XXX" && bought.amount == 0)
    }
}
