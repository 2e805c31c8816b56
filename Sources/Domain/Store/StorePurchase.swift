import Foundation

/// A purchase as a store notification describes it, in the terms of Handoff's payments.
///
/// `paymentId` is the store's stable id of the purchase: App Store `originalTransactionId` for subscriptions and
/// `transactionId` otherwise, RevenueCat `original_transaction_id` (or `transaction_id` for a non-renewing
/// purchase), Google the order id. `amount` is in minor units of `currency`; a store that names no price gives 0 and
/// `XXX` (ISO 4217 "no currency").
public struct StorePurchase: Sendable, Equatable {
    public var paymentId: PaymentID
    public var productId: String
    public var entitlement: String
    public var amount: Int
    public var currency: String
    /// nil = no end (a one-time purchase).
    public var expiresAt: Date?

    public init(paymentId: PaymentID, productId: String, entitlement: String, amount: Int, currency: String,
                expiresAt: Date?) {
        self.paymentId = paymentId
        self.productId = productId
        self.entitlement = entitlement
        self.amount = amount
        self.currency = currency
        self.expiresAt = expiresAt
    }

    /// The currency code recorded when a store names none.
    public static let unknownCurrency = "XXX"

    /// `text` as a payment id: itself when it is a valid `PaymentID`, else `<store>:` and the first 32 hex digits of
    /// its SHA-256 (`digest`), so store ids with other characters (spaces, slashes) still name one payment each.
    public static func paymentID(_ text: String, store: NotificationStore, digest: (String) -> String)
        -> PaymentID?
    {
        if case .success(let id) = PaymentID.parse(text) { return id }
        guard !text.isEmpty else { return nil }
        let fallback = "\(store.rawValue):" + digest(text).prefix(32)
        if case .success(let id) = PaymentID.parse(fallback) { return id }
        return nil
    }

    /// Minor units of `currency` from a decimal price (`9.99` USD → 999), rounded half away from zero; nil for a
    /// negative, non-finite or absurd price.
    public static func minorUnits(_ price: Double, currency: String) -> Int? {
        guard price.isFinite, price >= 0 else { return nil }
        var scale = 1.0
        for _ in 0..<MoneyText.decimals(currency) { scale *= 10 }
        let units = (price * scale).rounded(.toNearestOrAwayFromZero)
        guard units < 1e15 else { return nil }
        return Int(units)
    }

    /// Minor units from an App Store price in milliunits (`9990` USD → 999).
    public static func minorUnits(milliunits: Int64, currency: String) -> Int? {
        guard milliunits >= 0, milliunits < 1_000_000_000_000_000 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<MoneyText.decimals(currency) { scale *= 10 }
        // milliunits × 10^decimals / 1000, rounded half up.
        return Int((milliunits * scale + 500) / 1000)
    }
}

/// What a verified store notification does to entitlements.
public enum StoreEffect: Sendable, Equatable {
    /// The purchase is active (until its `expiresAt`): recorded for the buyer when new, extended when known.
    case activate(StorePurchase)
    /// The purchase's entitlement ended at `at`.
    case expire(paymentId: PaymentID, at: Date)
    /// The purchase was refunded or revoked at `at`.
    case revoke(paymentId: PaymentID, at: Date)
    /// Every payment of the `from` buyers moves to the buyer `to`.
    case transfer(from: [String], to: String)
    /// Recorded only.
    case none
}
