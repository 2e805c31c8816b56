/// Google Play's Real-time developer notification: the JSON inside a Pub/Sub message's `data`
/// (developer.android.com/google/play/billing/rtdn-reference).
///
/// It says only that a purchase changed; the Play Developer API tells what it is now. Exactly one of
/// `subscriptionNotification`, `oneTimeProductNotification`, `voidedPurchaseNotification` and `testNotification`
/// is present (`kind`); a notification with none of them is of a kind Google added later (`.unrecognized`, recorded
/// only).
public struct DeveloperNotification: Hashable, Sendable {
    /// The notification format's version (`"1.0"`).
    public let version: String
    /// The app's package name; must be the app's own.
    public let packageName: String
    /// When the event happened, in milliseconds since 1970 (`eventTimeMillis`, sent as a JSON string or number).
    public let eventTimeMillis: Int64
    /// What happened.
    public let kind: Kind

    /// The four notification kinds Google documents, and room for the ones it adds.
    public enum Kind: Hashable, Sendable {
        case subscription(SubscriptionNotification)
        case oneTimeProduct(OneTimeProductNotification)
        case voidedPurchase(VoidedPurchaseNotification)
        case test(TestNotification)
        /// None of the four fields is present.
        case unrecognized
    }

    public init(version: String, packageName: String, eventTimeMillis: Int64, kind: Kind) {
        self.version = version
        self.packageName = packageName
        self.eventTimeMillis = eventTimeMillis
        self.kind = kind
    }

    /// The name of the field that carried the kind (`subscriptionNotification`, `oneTimeProductNotification`,
    /// `voidedPurchaseNotification`, `testNotification`), or `unrecognized`: the event's `notificationType`.
    public var kindName: String {
        switch kind {
        case .subscription: "subscriptionNotification"
        case .oneTimeProduct: "oneTimeProductNotification"
        case .voidedPurchase: "voidedPurchaseNotification"
        case .test: "testNotification"
        case .unrecognized: "unrecognized"
        }
    }

    /// The notification type's documented name (`SUBSCRIPTION_RENEWED`, `ONE_TIME_PRODUCT_PURCHASED`, or for a voided
    /// purchase its refund type, `REFUND_TYPE_FULL_REFUND`), its number when Google added it later, nil for test and
    /// unrecognized notifications: the event's `subtype`.
    public var typeName: String? {
        switch kind {
        case .subscription(let notification): notification.notificationType.name
        case .oneTimeProduct(let notification): notification.notificationType.name
        case .voidedPurchase(let notification): notification.refundType?.name
        case .test, .unrecognized: nil
        }
    }

    /// The purchase token the notification is about, nil for test and unrecognized notifications.
    public var purchaseToken: String? {
        switch kind {
        case .subscription(let notification): notification.purchaseToken
        case .oneTimeProduct(let notification): notification.purchaseToken
        case .voidedPurchase(let notification): notification.purchaseToken
        case .test, .unrecognized: nil
        }
    }
}
