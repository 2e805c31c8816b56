import Foundation

/// The stream names of the commission ledger (issue 15, docs/affiliates.md).
public enum CommissionStreams {
    /// One affiliate's ledger: every credit and reversal, in order.
    public static func ledger(affiliateId: String) -> String { "commissions-\(affiliateId)" }
}

/// A verified App Store sale earned an affiliate a commission. Amounts are minor units; `currency` is the sale's for a
/// percentage rule and the rule's own for a fixed one (never converted). `payableAfter` ends the hold period (RFC 3339
/// UTC with milliseconds). One per `transactionId`, ever. Stream `commissions-<affiliateId>`.
public struct CommissionCredited: EventPayload, Equatable {
    public static let eventType = "CommissionCredited"
    public static let schemaVersion = 1
    public var affiliateId: String
    public var campaignId: String
    public var clickId: String
    public var projectId: String
    public var appId: String
    /// The store notification (its `StoreNotificationReceived` event id) that carried the sale.
    public var notificationEventId: String
    public var transactionId: String
    public var originalTransactionId: String
    /// `first_purchase` or `renewal`.
    public var saleType: String
    public var purchasedAt: String
    public var baseAmount: Int
    public var baseCurrency: String
    public var amount: Int
    public var currency: String
    public var payableAfter: String

    public init(affiliateId: String, campaignId: String, clickId: String, projectId: String, appId: String,
                notificationEventId: String, transactionId: String, originalTransactionId: String, saleType: String,
                purchasedAt: String, baseAmount: Int, baseCurrency: String, amount: Int, currency: String,
                payableAfter: String) {
        self.affiliateId = affiliateId
        self.campaignId = campaignId
        self.clickId = clickId
        self.projectId = projectId
        self.appId = appId
        self.notificationEventId = notificationEventId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.saleType = saleType
        self.purchasedAt = purchasedAt
        self.baseAmount = baseAmount
        self.baseCurrency = baseCurrency
        self.amount = amount
        self.currency = currency
        self.payableAfter = payableAfter
    }
}

/// A REFUND or REVOKE took back a credited sale: exactly the credit's `amount` and `currency` are reversed. One per
/// credited `transactionId`, ever. Stream `commissions-<affiliateId>`.
public struct CommissionReversed: EventPayload, Equatable {
    public static let eventType = "CommissionReversed"
    public static let schemaVersion = 1
    public var affiliateId: String
    public var campaignId: String
    public var transactionId: String
    public var originalTransactionId: String
    /// The `CommissionCredited` event reversed.
    public var creditEventId: String
    public var notificationEventId: String
    /// The notification type that took the sale back (`REFUND` or `REVOKE`).
    public var reason: String
    public var amount: Int
    public var currency: String

    public init(affiliateId: String, campaignId: String, transactionId: String, originalTransactionId: String,
                creditEventId: String, notificationEventId: String, reason: String, amount: Int, currency: String) {
        self.affiliateId = affiliateId
        self.campaignId = campaignId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.creditEventId = creditEventId
        self.notificationEventId = notificationEventId
        self.reason = reason
        self.amount = amount
        self.currency = currency
    }
}
