import EventStore
import Foundation

/// Mints the fresh handoff code (72 h) a recovery mail carries, for a buyer's payment, inside the job's transaction
/// (its `HandoffCodeMinted` commits with `RecoveryMailSent`, or not at all).
///
/// The service wires the shared minting of the code-redemption work (issue 6); until then no minter is configured
/// and recovery jobs for known buyers fail permanently (`dead`, replayable with `handoff jobs retry`).
public protocol RecoveryCodeMinter: Sendable {
    func mintRecoveryCode(org: UUID, guid: String, paymentId: String, now: Date, transaction: EventTransaction)
        throws -> MintedRecoveryCode
}

/// A freshly minted code as the mail needs it.
public struct MintedRecoveryCode: Sendable, Equatable {
    /// The code in clear, for the mail only.
    public var code: String
    /// Its lookup hash, recorded in `RecoveryMailSent`.
    public var codeHash: String
    public var expiresAt: Date
    /// The post-payment page token (`<PUBLIC_BASE_URL>/done/<pageToken>`).
    public var pageToken: String

    public init(code: String, codeHash: String, expiresAt: Date, pageToken: String) {
        self.code = code
        self.codeHash = codeHash
        self.expiresAt = expiresAt
        self.pageToken = pageToken
    }
}
