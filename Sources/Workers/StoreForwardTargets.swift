import EventStore
import Foundation

/// How a destination wants its forwards signed.
public enum ForwardScheme: String, Sendable, Equatable, CaseIterable {
    /// The exact body Handoff received, `x-x3-signature: sha256=<hex HMAC-SHA256(body, key = store token)>`.
    case x3
    /// App Store only: `{"signedPayload":"<JWS>"}`, `x-ea-timestamp`, `x-ea-signature: sha256=<hex
    /// HMAC-SHA256(secret, timestamp + "." + body)>`.
    case attribloom
}

/// Where and how one forward goes: what `ForwardTargets` answers for a job.
public struct ForwardTarget: Sendable, Equatable {
    /// The destination's URL as stored (validated again before each send).
    public var url: String
    public var scheme: ForwardScheme
    /// The destination's signing secret (attribloom), opened; nil when none is set.
    public var secret: [UInt8]?
    /// The store token the notification arrived under — the current one or one rotated away since — opened: the
    /// x3 signature's key.
    public var signingToken: String

    public init(url: String, scheme: ForwardScheme, secret: [UInt8]?, signingToken: String) {
        self.url = url
        self.scheme = scheme
        self.secret = secret
        self.signingToken = signingToken
    }
}

/// The lookup of forward destinations and store tokens, in the claim transaction of a `store-forward` job (the
/// transaction has entered the job's org scope). The apps write model provides the real one; tests a table.
public protocol ForwardTargets: Sendable {
    /// Destination `destinationId` of app `appId` in `org`, signing with the store token whose hex SHA-256 is
    /// `storeTokenHash` (the token the notification arrived under, even when it was rotated away since); nil when
    /// the app, the destination or that token no longer exists (the job then ends without sending).
    func target(org: UUID, appId: String, destinationId: String, storeTokenHash: String,
                on transaction: EventTransaction) throws -> ForwardTarget?
}
