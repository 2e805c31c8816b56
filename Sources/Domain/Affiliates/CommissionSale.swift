import Foundation

/// A verified App Store transaction as the commission ledger sees it: what was sold, when, for how much, and which
/// `appAccountToken` (so which referral) it carries.
///
/// Built from a notification's signed transaction (`AppleTransaction`). A transaction whose `originalTransactionId`
/// is its own `transactionId` (or absent) is a first purchase; any other is a renewal of the original.
public struct CommissionSale: Sendable, Equatable {
    /// What a notification does to the ledger.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A sale to credit (SUBSCRIBED, DID_RENEW, ONE_TIME_CHARGE, OFFER_REDEEMED).
        case sale
        /// A refund or revocation to reverse (REFUND, REVOKE).
        case reversal
    }

    /// Whether a credited sale opened the subscription or renewed it: the event's `saleType`.
    public enum SaleType: String, Sendable, Equatable, Codable {
        case firstPurchase = "first_purchase"
        case renewal
    }

    public var kind: Kind
    public var appAccountToken: UUID
    public var transactionId: String
    public var originalTransactionId: String
    public var saleType: SaleType
    /// When this transaction was bought, and when its original was (the same for a first purchase).
    public var purchasedAt: Date
    public var originalPurchasedAt: Date
    /// The price in minor units of `baseCurrency`; 0 and `XXX` when the transaction names none.
    public var baseAmount: Int
    public var baseCurrency: String

    /// Notification types that sell something.
    public static let crediting: Set<String> = ["SUBSCRIBED", "DID_RENEW", "ONE_TIME_CHARGE", "OFFER_REDEEMED"]
    /// Notification types that take a sale back.
    public static let reversing: Set<String> = ["REFUND", "REVOKE"]

    public init(kind: Kind, appAccountToken: UUID, transactionId: String, originalTransactionId: String,
                saleType: SaleType, purchasedAt: Date, originalPurchasedAt: Date, baseAmount: Int,
                baseCurrency: String) {
        self.kind = kind
        self.appAccountToken = appAccountToken
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.saleType = saleType
        self.purchasedAt = purchasedAt
        self.originalPurchasedAt = originalPurchasedAt
        self.baseAmount = baseAmount
        self.baseCurrency = baseCurrency
    }

    /// The ledger's view of a notification of `notificationType` carrying `transaction`; nil when it neither sells
    /// nor takes back, or the transaction has no `appAccountToken`, id or purchase date (nothing to attribute).
    public static func from(notificationType: String, transaction: AppleTransaction?) -> CommissionSale? {
        let kind: Kind
        if crediting.contains(notificationType) {
            kind = .sale
        } else if reversing.contains(notificationType) {
            kind = .reversal
        } else {
            return nil
        }
        guard let transaction, let token = transaction.appAccountTokenUUID,
              let id = transaction.transactionId, !id.isEmpty, let purchasedAt = transaction.purchasedAt
        else { return nil }
        let original = transaction.originalTransactionId.flatMap { $0.isEmpty ? nil : $0 } ?? id
        let originalPurchasedAt = transaction.originalPurchaseDate.map(AppleTime.date(milliseconds:)) ?? purchasedAt
        let price = transaction.minorPrice
        return CommissionSale(kind: kind, appAccountToken: token, transactionId: id, originalTransactionId: original,
                              saleType: original == id ? .firstPurchase : .renewal, purchasedAt: purchasedAt,
                              originalPurchasedAt: originalPurchasedAt, baseAmount: price.amount,
                              baseCurrency: price.currency)
    }
}
