/// A subscription changed (`subscriptionNotification`).
public struct SubscriptionNotification: Hashable, Sendable {
    public let version: String
    public let notificationType: SubscriptionNotificationType
    /// The purchase token of the subscription: the key for `purchases.subscriptionsv2.get`.
    public let purchaseToken: String
    /// The subscription's product id; Google no longer promises it, so it may be absent (read `lineItems` of the
    /// Play Developer API instead).
    public let subscriptionId: String?

    public init(version: String, notificationType: SubscriptionNotificationType, purchaseToken: String,
                subscriptionId: String?) {
        self.version = version
        self.notificationType = notificationType
        self.purchaseToken = purchaseToken
        self.subscriptionId = subscriptionId
    }
}
