/// A one-time product was bought, or a pending purchase of one was canceled (`oneTimeProductNotification`).
public struct OneTimeProductNotification: Hashable, Sendable {
    public let version: String
    public let notificationType: OneTimeProductNotificationType
    /// The purchase token: the key for `purchases.products.get`.
    public let purchaseToken: String
    /// The product id.
    public let sku: String

    public init(
        version: String, notificationType: OneTimeProductNotificationType, purchaseToken: String, sku: String
    ) {
        self.version = version
        self.notificationType = notificationType
        self.purchaseToken = purchaseToken
        self.sku = sku
    }
}
