import Foundation

/// The stream of an order's conversion (issue 20).
public enum ConversionStreams {
    /// One order of a project: its `AppConversionConfirmed`, once.
    public static func conversion(project: String, orderId: PaymentID) -> String {
        "app-conversion-\(project)-\(orderId.text)"
    }
}

/// A purchase an app hinted (`purchase` event with `p.orderId`) was confirmed by a payment under the same order id,
/// in either order (docs/app-ingest.md "Conversions"). Once per (project, order id).
///
/// `source` is what confirmed it: `apple`, `google`, `revenuecat` (a verified store notification) or `payment`
/// (`POST /s2s/v1/payments`). `installHash` is the keyed hash of the hinting install — absent, with `sessionId`, when
/// the install was erased between its hint and the confirmation; times are RFC 3339 UTC with milliseconds (`hintedAt`
/// the device time corrected by the server clock).
public struct AppConversionConfirmed: EventPayload, Equatable {
    public static let eventType = "AppConversionConfirmed"
    public static let schemaVersion = 1
    public var appId: String
    public var projectId: String
    public var orderId: String
    public var installHash: String?
    public var sessionId: String?
    public var hintedAt: String
    public var source: String
    public var amount: Int
    public var currency: String
    public var productId: String?
    public var confirmedAt: String

    public init(appId: String, projectId: String, orderId: String, installHash: String?, sessionId: String?,
                hintedAt: String, source: String, amount: Int, currency: String, productId: String?,
                confirmedAt: String) {
        self.appId = appId
        self.projectId = projectId
        self.orderId = orderId
        self.installHash = installHash
        self.sessionId = sessionId
        self.hintedAt = hintedAt
        self.source = source
        self.amount = amount
        self.currency = currency
        self.productId = productId
        self.confirmedAt = confirmedAt
    }
}
