/// A Pub/Sub push request of Google Play's Real-time developer notifications, with its `DeveloperNotification`
/// decoded: `{"message":{"data","messageId","publishTime","attributes"?},"subscription"}`.
///
/// Parse one with `GoogleNotificationParser.parse(body:)`. The intake dedupes by `message.messageId` and checks
/// `notification.packageName` against the app's package.
public struct PubSubPush: Hashable, Sendable {
    /// The subscription that pushed it (`projects/<project>/subscriptions/<name>`).
    public let subscription: String
    /// The Pub/Sub message.
    public let message: PubSubMessage
    /// `message.data` decoded.
    public let notification: DeveloperNotification

    public init(subscription: String, message: PubSubMessage, notification: DeveloperNotification) {
        self.subscription = subscription
        self.message = message
        self.notification = notification
    }
}

/// One Pub/Sub message as a push carries it.
public struct PubSubMessage: Hashable, Sendable {
    /// Pub/Sub's id of the message, unique within the topic: the notification id to dedupe by.
    public let messageId: String
    /// When Pub/Sub received the message (RFC 3339 text as sent), when present.
    public let publishTime: String?
    /// The message's attributes (Google Play sets none today); empty when absent.
    public let attributes: [String: String]
    /// The base64-decoded `data`: the `DeveloperNotification` JSON.
    public let data: [UInt8]

    public init(messageId: String, publishTime: String?, attributes: [String: String], data: [UInt8]) {
        self.messageId = messageId
        self.publishTime = publishTime
        self.attributes = attributes
        self.data = data
    }
}
