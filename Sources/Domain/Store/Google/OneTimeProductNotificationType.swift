/// `oneTimeProductNotification.notificationType`.
public struct OneTimeProductNotificationType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A one-time product was bought.
    public static let purchased = Self(rawValue: 1)
    /// A pending purchase of a one-time product was canceled.
    public static let canceled = Self(rawValue: 2)

    /// Google's names, by number.
    public static let names: [Int: String] = [1: "ONE_TIME_PRODUCT_PURCHASED", 2: "ONE_TIME_PRODUCT_CANCELED"]

    /// Google's name, or the number as text.
    public var name: String { Self.names[rawValue] ?? String(rawValue) }
}
