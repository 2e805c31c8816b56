/// Size limits of Google Play notifications (Pub/Sub pushes of a `DeveloperNotification`).
///
/// A real notification is well under 2 KiB: a package name, a purchase token of a few hundred characters, a product
/// id. Pub/Sub itself allows messages of 10 MB, but only Google Play publishes to the topic, so the body limit keeps a
/// 30-fold margin over the largest real notification instead (docs/store-notifications.md). The attribute limits are
/// Pub/Sub's documented maxima.
public enum GoogleNotificationLimits {
    /// The largest push body accepted (413 above it).
    public static let maxBodyBytes = 65_536
    /// The most characters of `message.messageId` (Pub/Sub ids are decimal numbers of about 16 digits).
    public static let maxMessageIDLength = 256
    /// The most characters of `subscription` (`projects/<project>/subscriptions/<name>`) and `message.publishTime`.
    public static let maxSubscriptionLength = 512
    /// The most `message.attributes`, and the most bytes of an attribute's key and of its value (Pub/Sub's limits).
    public static let maxAttributes = 100
    public static let maxAttributeKeyBytes = 256
    public static let maxAttributeValueBytes = 1024
    /// The most characters of a purchase token (Google's are a few hundred).
    public static let maxPurchaseTokenLength = 4096
    /// The most characters of a product id (`subscriptionId`, `sku`), an order id, and a version.
    public static let maxIdentifierLength = 256
}
