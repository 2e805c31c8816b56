/// `subscriptionNotification.notificationType`: a number, named by Google's table (rtdn-reference). Numbers
/// Google adds later are kept as they came.
public struct SubscriptionNotificationType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Recovered from account hold, or resumed from a pause.
    public static let recovered = Self(rawValue: 1)
    /// An active subscription renewed.
    public static let renewed = Self(rawValue: 2)
    /// Canceled, voluntarily or not; access lasts until the expiry time.
    public static let canceled = Self(rawValue: 3)
    /// A new subscription was bought.
    public static let purchased = Self(rawValue: 4)
    /// Entered account hold.
    public static let onHold = Self(rawValue: 5)
    /// Entered the grace period.
    public static let inGracePeriod = Self(rawValue: 6)
    /// The user restored a canceled, not yet expired subscription.
    public static let restarted = Self(rawValue: 7)
    /// The user confirmed a price change (deprecated by Google).
    public static let priceChangeConfirmed = Self(rawValue: 8)
    /// The renewal time was extended.
    public static let deferred = Self(rawValue: 9)
    /// Paused.
    public static let paused = Self(rawValue: 10)
    /// The pause schedule changed.
    public static let pauseScheduleChanged = Self(rawValue: 11)
    /// Revoked before its expiry time (e.g. refunded): access ends now.
    public static let revoked = Self(rawValue: 12)
    /// Expired.
    public static let expired = Self(rawValue: 13)
    /// Items of the subscription changed (add-ons).
    public static let itemsChanged = Self(rawValue: 17)
    /// A cancellation was scheduled.
    public static let cancellationScheduled = Self(rawValue: 18)
    /// The price of a subscription item changed.
    public static let priceChangeUpdated = Self(rawValue: 19)
    /// A pending purchase of a subscription was canceled.
    public static let pendingPurchaseCanceled = Self(rawValue: 20)
    /// The user's consent to a price step-up changed.
    public static let priceStepUpConsentUpdated = Self(rawValue: 22)

    /// Google's names, by number.
    public static let names: [Int: String] = [
        1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED",
        4: "SUBSCRIPTION_PURCHASED", 5: "SUBSCRIPTION_ON_HOLD", 6: "SUBSCRIPTION_IN_GRACE_PERIOD",
        7: "SUBSCRIPTION_RESTARTED", 8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", 9: "SUBSCRIPTION_DEFERRED",
        10: "SUBSCRIPTION_PAUSED", 11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED",
        13: "SUBSCRIPTION_EXPIRED", 17: "SUBSCRIPTION_ITEMS_CHANGED", 18: "SUBSCRIPTION_CANCELLATION_SCHEDULED",
        19: "SUBSCRIPTION_PRICE_CHANGE_UPDATED", 20: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED",
        22: "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED",
    ]

    /// Google's name, or the number as text for a type Google added after this table.
    public var name: String { Self.names[rawValue] ?? String(rawValue) }
}
