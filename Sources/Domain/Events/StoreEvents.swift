import Foundation

/// The stream names of store notifications (issue 14, docs/store-notifications.md).
public enum StoreStreams {
    /// One app's notifications: every `StoreNotificationReceived` of the app, in arrival order.
    public static func notifications(appId: UUID) -> String { "store-\(appId.lowercasedText)" }
}

/// Where a store notification came from: the path segment of `POST /v1/m/store/{store}/{token}`.
public enum NotificationStore: String, Sendable, Codable, CaseIterable {
    case apple, google, revenuecat
}

/// A store notification arrived at an app's store URL and was accepted (Apple and RevenueCat 200, Google 204).
///
/// `body` is the exact request body, standard base64, so the forwarder sends the very bytes the store sent (the JSON of
/// the event cannot hold arbitrary bytes as they were). `notificationId` is the store's own id (Apple
/// `notificationUUID`, Pub/Sub `messageId`, RevenueCat `event.id`): one event per (app, store, notificationId).
/// `verified` is true when the signature (Apple), the OIDC push token (Google) or the shared secret (RevenueCat)
/// verified; only a verified notification has effects and is forwarded. `storeTokenHash` is the hex SHA-256 of the
/// store token the notification arrived under: a forward queued before a rotation still signs with that token.
/// `destinations` lists the app's forward destinations at arrival (the jobs the dispatcher makes).
public struct StoreNotificationReceived: EventPayload, Equatable {
    public static let eventType = "StoreNotificationReceived"
    public static let schemaVersion = 1
    public var appId: String
    public var projectId: String
    public var store: String
    public var notificationId: String
    /// Apple `notificationType`, Google `subscriptionNotification` / `oneTimeProductNotification` /
    /// `voidedPurchaseNotification` / `testNotification`, RevenueCat `event.type`.
    public var notificationType: String
    public var subtype: String?
    /// Apple `Production` / `Sandbox`, RevenueCat `PRODUCTION` / `SANDBOX`; nil where the store says nothing.
    public var environment: String?
    public var verified: Bool
    public var storeTokenHash: String
    public var body: String
    public var destinations: [String]
    /// The buyer the notification concerns, when it names one Handoff knows.
    public var guid: String?

    public init(appId: String, projectId: String, store: String, notificationId: String, notificationType: String,
                subtype: String?, environment: String?, verified: Bool, storeTokenHash: String, body: String,
                destinations: [String], guid: String?) {
        self.appId = appId
        self.projectId = projectId
        self.store = store
        self.notificationId = notificationId
        self.notificationType = notificationType
        self.subtype = subtype
        self.environment = environment
        self.verified = verified
        self.storeTokenHash = storeTokenHash
        self.body = body
        self.destinations = destinations
        self.guid = guid
    }
}
