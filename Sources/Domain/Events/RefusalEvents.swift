import Foundation

extension FingerprintStreams {
    /// A payment's fingerprint refusals (`FingerprintRefused`), apart from `fingerprint-<paymentId>` so that a
    /// refusal never moves the stream whose version the capture checks (and under a prefix no payment id can make
    /// collide with it).
    public static func refusals(paymentId: String) -> String { "refusals-fingerprint-\(paymentId)" }
}

/// A probe from the fingerprint's IP did not get this payment's buyer (`POST /public/handoff/resolve-by-fingerprint`
/// answered the uniform 404). Recorded so the buyer's timeline can say why; never answered to the device.
///
/// `reason` is `FingerprintRefusal.reason`; `attribute` names the contradicting attribute (`platform`, `screen`,
/// `timezone`) and is nil otherwise. No attribute values are stored. `refusedAt` RFC 3339 UTC (service clock).
public struct FingerprintRefused: EventPayload, Equatable {
    public static let eventType = "FingerprintRefused"
    public static let schemaVersion = 1
    public var paymentId: String
    public var guid: String
    public var projectId: String
    public var reason: String
    public var attribute: String?
    public var refusedAt: String

    public init(paymentId: String, guid: String, projectId: String, refusal: FingerprintRefusal, refusedAt: String) {
        self.paymentId = paymentId
        self.guid = guid
        self.projectId = projectId
        self.reason = refusal.reason
        self.attribute = refusal.attribute
        self.refusedAt = refusedAt
    }
}

/// A known handoff code or install token was offered to `GET /public/handoff/resolve` after it was spent or expired
/// (the device got the uniform 404). Stream `buyer-<guid>`; `codeHash` is the code's lookup hash (never the code);
/// `reason` is `expired` or `spent`; `refusedAt` RFC 3339 UTC (service clock).
public struct HandoffCodeRefused: EventPayload, Equatable {
    public static let eventType = "HandoffCodeRefused"
    public static let schemaVersion = 1
    public var codeHash: String
    public var guid: String
    public var paymentId: String
    /// `handoff` or `install`.
    public var kind: String
    public var reason: String
    public var refusedAt: String

    public init(codeHash: String, guid: String, paymentId: String, kind: String, reason: String, refusedAt: String) {
        self.codeHash = codeHash
        self.guid = guid
        self.paymentId = paymentId
        self.kind = kind
        self.reason = reason
        self.refusedAt = refusedAt
    }
}

/// The recovery-mail worker decided to send nothing for a request (stream `recovery-<requestId>`).
///
/// `reason` is `EmailRecovery.Skip`'s raw value (`noBuyer`, `tooSoon`, `erased`); `guids` the buyers the address
/// names (empty for `noBuyer`), so each buyer's timeline shows the skip; `skippedAt` RFC 3339 UTC (worker clock).
public struct RecoveryMailSkipped: EventPayload, Equatable {
    public static let eventType = "RecoveryMailSkipped"
    public static let schemaVersion = 1
    public var requestId: String
    public var reason: String
    public var guids: [String]
    public var skippedAt: String

    public init(requestId: String, reason: String, guids: [String], skippedAt: String) {
        self.requestId = requestId
        self.reason = reason
        self.guids = guids
        self.skippedAt = skippedAt
    }
}
