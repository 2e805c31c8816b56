import Foundation

/// What a Google Play notification does to entitlements, once the Play Developer API has told the purchase's facts
/// (docs/store-notifications.md, "Google Play"). Pure: the worker fetches, this decides.
public enum PlayPurchaseEffect {
    /// A purchase as the Play Developer API describes it.
    public struct Purchase: Sendable, Equatable {
        /// `latestOrderId` (subscriptions) or `orderId` (one-time products), e.g. `GPA.1234-5678-9012-34567..2`.
        public var orderId: String
        public var productId: String
        /// The end of the current period; nil for a one-time product.
        public var expiresAt: Date?
        /// Minor units and currency when the API names a price; nil otherwise.
        public var amount: Int?
        public var currency: String?

        public init(orderId: String, productId: String, expiresAt: Date?, amount: Int? = nil,
                    currency: String? = nil) {
            self.orderId = orderId
            self.productId = productId
            self.expiresAt = expiresAt
            self.amount = amount
            self.currency = currency
        }
    }

    /// The payment id of an order: the order id without its renewal suffix (`GPA.1234-5678-9012-34567..2` →
    /// `GPA.1234-5678-9012-34567`), so every renewal of a subscription is one payment.
    public static func paymentID(orderId: String) -> PaymentID? {
        let base = orderId.range(of: "..").map { String(orderId[..<$0.lowerBound]) } ?? orderId
        return try? PaymentID.parse(base).get()
    }

    /// The effect of a `subscriptionNotification` of `notificationType` (Google's numbers) on `purchase`, at `now`.
    public static func subscription(notificationType: Int, purchase: Purchase, now: Date) -> StoreEffect {
        guard let id = paymentID(orderId: purchase.orderId) else { return .none }
        switch notificationType {
        // RECOVERED, RENEWED, PURCHASED, RESTARTED, PRICE_CHANGE_CONFIRMED, DEFERRED, PRICE_CHANGE_UPDATED
        case 1, 2, 4, 7, 8, 9, 19:
            return .activate(storePurchase(id, purchase))
        // ON_HOLD, PAUSED, EXPIRED: the entitlement ends (the period's end if it is earlier).
        case 5, 10, 13:
            return .expire(paymentId: id, at: min(purchase.expiresAt ?? now, now))
        // REVOKED: refunded and taken back.
        case 12:
            return .revoke(paymentId: id, at: now)
        // CANCELED (runs to the period's end), IN_GRACE_PERIOD, PAUSE_SCHEDULE_CHANGED, PENDING_PURCHASE_CANCELED, …
        default:
            return .none
        }
    }

    /// The effect of a `oneTimeProductNotification`: PURCHASED (1) grants a lifetime entitlement, CANCELED (2)
    /// changes nothing (a pending purchase that never paid).
    public static func oneTime(notificationType: Int, purchase: Purchase) -> StoreEffect {
        guard notificationType == 1, let id = paymentID(orderId: purchase.orderId) else { return .none }
        var lifetime = purchase
        lifetime.expiresAt = nil
        return .activate(storePurchase(id, lifetime))
    }

    /// The effect of a `voidedPurchaseNotification`: the order's payment is refunded.
    public static func voided(orderId: String, now: Date) -> StoreEffect {
        guard let id = paymentID(orderId: orderId) else { return .none }
        return .revoke(paymentId: id, at: now)
    }

    static func storePurchase(_ id: PaymentID, _ purchase: Purchase) -> StorePurchase {
        let priced = purchase.amount != nil && purchase.currency != nil
        return StorePurchase(paymentId: id, productId: purchase.productId, entitlement: purchase.productId,
                             amount: priced ? purchase.amount! : 0,
                             currency: priced ? purchase.currency! : StorePurchase.unknownCurrency,
                             expiresAt: purchase.expiresAt)
    }
}
