/// `voidedPurchaseNotification.refundType`.
public struct VoidedPurchaseRefundType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The whole purchase was voided.
    public static let fullRefund = Self(rawValue: 1)
    /// Part of a multi-quantity purchase was voided.
    public static let quantityBasedPartialRefund = Self(rawValue: 2)

    /// Google's names, by number.
    public static let names: [Int: String] = [
        1: "REFUND_TYPE_FULL_REFUND", 2: "REFUND_TYPE_QUANTITY_BASED_PARTIAL_REFUND",
    ]

    /// Google's name, or the number as text.
    public var name: String { Self.names[rawValue] ?? String(rawValue) }
}
