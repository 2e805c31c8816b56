import Foundation

/// A handoff code or install token was exchanged for its buyer's guid (`GET /public/handoff/resolve`): it is spent.
///
/// Stream `buyer-<guid>`, with the `EmailVerified` it may cause in the same append. `codeHash` is the code's lookup
/// hash (never the code); `redeemedAt` is RFC 3339 UTC with milliseconds (the service clock).
public struct HandoffCodeRedeemed: EventPayload, Equatable {
    public static let eventType = "HandoffCodeRedeemed"
    public static let schemaVersion = 1
    public var codeHash: String
    public var guid: String
    public var paymentId: String
    /// `handoff` or `install`.
    public var kind: String
    public var redeemedAt: String

    public init(codeHash: String, guid: String, paymentId: String, kind: String, redeemedAt: String) {
        self.codeHash = codeHash
        self.guid = guid
        self.paymentId = paymentId
        self.kind = kind
        self.redeemedAt = redeemedAt
    }
}

/// A buyer's e-mail (by its lookup reference; version 1: its lookup hash) is verified: the buyer proved they read
/// it, by redeeming a handoff code that was shown after a payment made with it or mailed to it. From then on
/// `POST /s2s/v1/users` with that e-mail finds this buyer. Stream `buyer-<guid>`; `codeHash` names the code that
/// proved it.
public struct EmailVerified: EventPayload, Equatable {
    public static let eventType = "EmailVerified"
    public static let schemaVersion = LookupRefVersion.current
    public var guid: String
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?
    public var codeHash: String

    public init(guid: String, emailRef: String, codeHash: String) {
        self.guid = guid
        self.emailRef = emailRef
        self.codeHash = codeHash
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}
