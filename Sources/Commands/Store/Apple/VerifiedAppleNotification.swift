import Domain
import Foundation

/// An App Store Server Notification V2 whose signature, chain and nested signed data all verified, for this app.
public struct VerifiedAppleNotification: Sendable, Equatable {
    /// The decoded notification.
    public let payload: AppleNotificationPayload
    /// The environment the notification names (`Production` or `Sandbox`), which its nested data share.
    public let environment: AppleEnvironment
    /// `data.signedTransactionInfo`, verified and decoded, when the notification has one.
    public let transaction: AppleTransaction?
    /// `data.signedRenewalInfo`, verified and decoded, when the notification has one.
    public let renewalInfo: AppleRenewalInfo?

    /// `notificationUUID`: the same on Apple's retries, the key to deduplicate by.
    public var notificationUUID: String { payload.notificationUUID }
    /// `notificationType` (`DID_RENEW`, `REFUND`, `TEST`, …).
    public var notificationType: String { payload.notificationType }
    /// `subtype`, when the type has one.
    public var subtype: String? { payload.subtype }
    /// `signedDate`: when the App Store signed the notification.
    public var signedDate: Date? { payload.signedAt }

    public init(payload: AppleNotificationPayload, environment: AppleEnvironment, transaction: AppleTransaction?,
                renewalInfo: AppleRenewalInfo?) {
        self.payload = payload
        self.environment = environment
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
