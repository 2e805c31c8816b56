import EventStore
import Foundation

/// Mints the fresh handoff code (72 h) a recovery mail carries, for a buyer's payment, inside the job's transaction
/// (its `HandoffCodeMinted` commits with `RecoveryMailSent`, or not at all).
///
/// `handoff work` wires `HandoffCodes.mint` (source `recovery`) when the identity secrets are configured; without
/// them no minter is configured and recovery jobs for known buyers fail permanently (`dead`, replayable with
/// `handoff jobs retry` once the secrets are set).
public protocol RecoveryCodeMinter: Sendable {
    /// Mints a code for `guid`'s payment `paymentId` that verifies the e-mail of lookup hash `emailHash` when
    /// redeemed, and appends its `HandoffCodeMinted` with `metadata` inside `transaction`.
    func mintRecoveryCode(org: UUID, guid: String, paymentId: String, emailHash: String, now: Date,
                          metadata: EventMetadata, transaction: EventTransaction) throws -> MintedRecoveryCode
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
