import API
import Domain
import EventStore
import Foundation
import Workers

/// The code of a recovery mail, minted by the same `HandoffCodes.mint` as a payment's codes: a 72 h handoff code of
/// source `recovery` that verifies the requested address when redeemed, its `HandoffCodeMinted` appended to
/// `buyer-<guid>` in the job's transaction (so it commits with `RecoveryMailSent`, or not at all).
public struct RecoveryCodes: RecoveryCodeMinter {
    private let codes: HandoffCodes
    private let pageTokens: PageToken

    public init(secrets: IdentitySecrets) {
        codes = HandoffCodes(secrets: secrets)
        pageTokens = PageToken(masterKey: secrets.masterKey)
    }

    /// The worker's minter when the identity secrets are configured, else nil (recovery jobs then go `dead`).
    static func configured(_ configuration: Configuration) -> RecoveryCodes? {
        configuration.identitySecrets.map {
            RecoveryCodes(secrets: IdentitySecrets(masterKey: $0.masterKey, lookupPepper: $0.lookupPepper,
                                                   passKeys: $0.passKeys))
        }
    }

    public func mintRecoveryCode(org: UUID, guid: String, paymentId: String, emailHash: String, now: Date,
                          metadata: EventMetadata, transaction: EventTransaction) throws -> MintedRecoveryCode {
        guard case .success(let buyer) = BuyerGuid.parse(guid), case .success(let payment) = PaymentID.parse(paymentId)
        else { throw JobFailure("a recovery code for a malformed guid or payment id", permanent: true) }
        let minted: HandoffCodes.Minted
        do {
            minted = try codes.mint(.handoff, source: .recovery, guid: buyer, paymentId: payment, emailHash: emailHash,
                                    org: OrgID(org), now: now, in: transaction)
        } catch let refusal as APIError {
            // The buyer's personal-data key was destroyed: no code can be sealed for them, now or later.
            throw JobFailure("no recovery code: \(refusal.message)", permanent: refusal.status == 409)
        }
        try transaction.append(org: org, stream: BuyerStreams.buyer(buyer), expectedVersion: .any,
                               events: [minted.event], metadata: metadata)
        guard let code = HandoffCode.parse(minted.text) else {
            throw JobFailure("a minted recovery code did not parse", permanent: true)
        }
        return MintedRecoveryCode(code: minted.text, codeHash: minted.codeHash, expiresAt: minted.expiresAt,
                                  pageToken: pageTokens.seal(code))
    }
}
