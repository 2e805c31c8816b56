import Foundation

/// A buyer opened the post-payment page of a payment while its handoff code was still usable (stream
/// `page-<paymentId>`, at most one per payment: later opens record nothing).
///
/// `platform` is the visitor's platform class from the user agent (`ios`, `android`) or absent for any other;
/// `language` the page language chosen from `Accept-Language` (`en`, `ru`); `openedAt` RFC 3339 UTC (service
/// clock). No IP, no user agent, no code: diagnostics only needs to know the page was reached.
public struct PostPaymentPageOpened: EventPayload, Equatable {
    public static let eventType = "PostPaymentPageOpened"
    public static let schemaVersion = 1
    public var guid: String
    public var paymentId: String
    public var platform: String?
    public var language: String
    public var openedAt: String

    public init(guid: String, paymentId: String, platform: String?, language: String, openedAt: String) {
        self.guid = guid
        self.paymentId = paymentId
        self.platform = platform
        self.language = language
        self.openedAt = openedAt
    }
}
