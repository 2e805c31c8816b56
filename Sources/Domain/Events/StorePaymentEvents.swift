import Foundation

/// A store renewed a payment's subscription (App Store DID_RENEW / SUBSCRIBED, RevenueCat RENEWAL, Google
/// SUBSCRIPTION_RENEWED): its entitlement now runs until `expiresAt` (RFC 3339 UTC with milliseconds). Stream
/// `payment-<paymentId>`.
public struct PaymentRenewed: EventPayload, Equatable {
    public static let eventType = "PaymentRenewed"
    public static let schemaVersion = 1
    public var paymentId: String
    public var expiresAt: String
    /// The store notification (its `StoreNotificationReceived` event id) that said so.
    public var notificationEventId: String

    public init(paymentId: String, expiresAt: String, notificationEventId: String) {
        self.paymentId = paymentId
        self.expiresAt = expiresAt
        self.notificationEventId = notificationEventId
    }
}

/// A store ended a payment's subscription (App Store EXPIRED / GRACE_PERIOD_EXPIRED, RevenueCat EXPIRATION, Google
/// SUBSCRIPTION_EXPIRED): its entitlement is expired from `expiredAt` on. Stream `payment-<paymentId>`.
public struct PaymentExpired: EventPayload, Equatable {
    public static let eventType = "PaymentExpired"
    public static let schemaVersion = 1
    public var paymentId: String
    public var expiredAt: String
    public var notificationEventId: String

    public init(paymentId: String, expiredAt: String, notificationEventId: String) {
        self.paymentId = paymentId
        self.expiredAt = expiredAt
        self.notificationEventId = notificationEventId
    }
}

/// A store moved a payment to another buyer (RevenueCat TRANSFER). Stream `payment-<paymentId>`.
public struct PaymentTransferred: EventPayload, Equatable {
    public static let eventType = "PaymentTransferred"
    public static let schemaVersion = 1
    public var paymentId: String
    public var fromGuid: String
    public var toGuid: String
    public var notificationEventId: String

    public init(paymentId: String, fromGuid: String, toGuid: String, notificationEventId: String) {
        self.paymentId = paymentId
        self.fromGuid = fromGuid
        self.toGuid = toGuid
        self.notificationEventId = notificationEventId
    }
}
