import Foundation

/// What a verified App Store notification does to entitlements (docs/store-notifications.md, "Effects").
///
/// SUBSCRIBED, DID_RENEW, OFFER_REDEEMED, ONE_TIME_CHARGE, RENEWAL_EXTENDED and REFUND_REVERSED activate the
/// transaction's purchase (recorded for a new buyer's payment, extended for a known one); EXPIRED and
/// GRACE_PERIOD_EXPIRED end it; REFUND and REVOKE revoke it; every other type (TEST included) is recorded only.
public enum AppleNotificationEffect {
    static let activating: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "ONE_TIME_CHARGE", "RENEWAL_EXTENDED", "REFUND_REVERSED",
    ]
    static let ending: Set<String> = ["EXPIRED", "GRACE_PERIOD_EXPIRED"]
    static let revoking: Set<String> = ["REFUND", "REVOKE"]

    /// The effect of a notification of `notificationType` carrying `transaction`, signed at `signedAt`.
    public static func effect(notificationType: String, transaction: AppleTransaction?, signedAt: Date?, now: Date)
        -> StoreEffect
    {
        guard let transaction, let id = paymentID(transaction) else { return .none }
        let at = signedAt ?? now
        if activating.contains(notificationType) {
            guard let purchase = purchase(transaction, id: id) else { return .none }
            return .activate(purchase)
        }
        if ending.contains(notificationType) {
            // Ended by the time it was signed and received, whatever the transaction's own expiry says.
            return .expire(paymentId: id, at: min(transaction.expiresAt ?? at, at, now))
        }
        if revoking.contains(notificationType) {
            return .revoke(paymentId: id, at: transaction.revokedAt ?? at)
        }
        return .none
    }

    /// The transaction types that are subscriptions (Apple's `type`): their payment is the `originalTransactionId`.
    static let subscriptionTypes: Set<String> = ["Auto-Renewable Subscription", "Non-Renewing Subscription"]

    /// `originalTransactionId` for a subscription (auto-renewable or not), `transactionId` otherwise.
    public static func paymentID(_ transaction: AppleTransaction) -> PaymentID? {
        let text = transaction.type.map(subscriptionTypes.contains) == true
            ? (transaction.originalTransactionId ?? transaction.transactionId) : transaction.transactionId
        return text.flatMap { try? PaymentID.parse($0).get() }
    }

    static func purchase(_ transaction: AppleTransaction, id: PaymentID) -> StorePurchase? {
        guard let product = transaction.productId, !product.isEmpty else { return nil }
        let price = transaction.minorPrice
        return StorePurchase(paymentId: id, productId: product, entitlement: product, amount: price.amount,
                             currency: price.currency, expiresAt: transaction.expiresAt)
    }
}
