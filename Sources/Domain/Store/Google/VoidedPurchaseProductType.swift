/// `voidedPurchaseNotification.productType`.
public struct VoidedPurchaseProductType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let subscription = Self(rawValue: 1)
    public static let oneTime = Self(rawValue: 2)

    /// Google's names, by number.
    public static let names: [Int: String] = [1: "PRODUCT_TYPE_SUBSCRIPTION", 2: "PRODUCT_TYPE_ONE_TIME"]

    /// Google's name, or the number as text.
    public var name: String { Self.names[rawValue] ?? String(rawValue) }
}
