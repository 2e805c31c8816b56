import Foundation

/// The stream names of fingerprint events; every one lives in the paying buyer's organization's log.
public enum FingerprintStreams {
    /// A payment's fingerprint stream: `FingerprintRecorded` (again on each visit of the page), then at most one
    /// `FingerprintMatched`.
    public static func fingerprint(paymentId: String) -> String { "fingerprint-\(paymentId)" }
}

/// The post-payment page sent a browser fingerprint for a payment of a project with fingerprinting on.
///
/// No IP in clear: `ipRef` is the IP's lookup reference for this buyer (`LookupRefVersion`; version 1 carried
/// `ipHash`, its `LookupHash.ipAddress`, instead). The user agent is sealed for
/// the buyer (`pd1.…`, subject = guid, field `userAgent`); only the platform derived from it is in clear. Times
/// are RFC 3339 UTC from the service clock: `paidAt` when the payment was recorded, `expiresAt` = `paidAt` + 2 h
/// (after which the fingerprint can no longer match and its row is deleted), `recordedAt` when the page sent it.
public struct FingerprintRecorded: EventPayload, Equatable {
    public static let eventType = "FingerprintRecorded"
    public static let schemaVersion = LookupRefVersion.current
    public var paymentId: String
    public var guid: String
    public var projectId: String
    /// `ios`, `android`, or nil when the user agent names neither.
    public var platform: String?
    /// Normalized `WxH` (shorter side first), CSS pixels.
    public var screen: String
    public var timezone: String?
    public var language: String?
    /// Version 1 only.
    public var ipHash: String?
    public var ipRef: String?
    public var userAgent: SealedValue?
    public var paidAt: String
    public var expiresAt: String
    public var recordedAt: String

    public init(paymentId: String, guid: String, projectId: String, platform: String?, screen: String,
                timezone: String?, language: String?, ipRef: String, userAgent: SealedValue?, paidAt: String,
                expiresAt: String, recordedAt: String) {
        self.paymentId = paymentId
        self.guid = guid
        self.projectId = projectId
        self.platform = platform
        self.screen = screen
        self.timezone = timezone
        self.language = language
        self.ipRef = ipRef
        self.userAgent = userAgent
        self.paidAt = paidAt
        self.expiresAt = expiresAt
        self.recordedAt = recordedAt
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}

/// An app resolved a payment's fingerprint (`POST /public/handoff/resolve-by-fingerprint`): the fingerprint is
/// spent and cannot match again. `matchMethod` is `fingerprint` or `ip`; `matchedAt` RFC 3339 UTC (service clock).
public struct FingerprintMatched: EventPayload, Equatable {
    public static let eventType = "FingerprintMatched"
    public static let schemaVersion = 1
    public var paymentId: String
    public var guid: String
    public var projectId: String
    public var matchMethod: String
    public var matchedAt: String

    public init(paymentId: String, guid: String, projectId: String, matchMethod: String, matchedAt: String) {
        self.paymentId = paymentId
        self.guid = guid
        self.projectId = projectId
        self.matchMethod = matchMethod
        self.matchedAt = matchedAt
    }
}

extension PersonalDataField {
    /// A browser's `User-Agent`, sealed in `FingerprintRecorded`.
    public static let userAgent = PersonalDataField(rawValue: "userAgent")
}
