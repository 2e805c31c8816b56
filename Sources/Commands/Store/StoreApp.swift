import Foundation

/// What store intake knows of the app a store URL belongs to: its tenancy, identity in the stores, the secrets that
/// check a notification (opened), and where its notifications are forwarded.
public struct StoreApp: Sendable, Equatable {
    public var org: UUID
    public var appId: UUID
    public var projectId: String
    /// `ios` or `android`.
    public var platform: String
    /// The bundle id (iOS) or package name (Android).
    public var bundleId: String
    /// The App Store app id; checked on Production notifications when set.
    public var appAppleId: Int64?
    /// Hex SHA-256 of the store token the request came under.
    public var storeTokenHash: String
    /// The destination ids notifications are forwarded to (the forward URL's default destination first).
    public var destinations: [String]
    /// The RevenueCat webhook `Authorization` value, when set.
    public var revenueCatSecret: String?
    /// The audience of Google Pub/Sub push tokens, when set (else the store URL itself).
    public var googlePushAudience: String?
    /// The service account whose push tokens count; without it Google notifications are stored, never applied.
    public var googlePushServiceAccount: String?

    public init(org: UUID, appId: UUID, projectId: String, platform: String, bundleId: String, appAppleId: Int64?,
                storeTokenHash: String, destinations: [String], revenueCatSecret: String?,
                googlePushAudience: String?, googlePushServiceAccount: String?) {
        self.org = org
        self.appId = appId
        self.projectId = projectId
        self.platform = platform
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.storeTokenHash = storeTokenHash
        self.destinations = destinations
        self.revenueCatSecret = revenueCatSecret
        self.googlePushAudience = googlePushAudience
        self.googlePushServiceAccount = googlePushServiceAccount
    }
}
