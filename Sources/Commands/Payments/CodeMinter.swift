import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Mints handoff codes and install tokens inside a caller's transaction: the one minting function of payments and
/// recovery mails.
///
/// A code exists only as its lookup hash (`LookupHash.of(code, kind: "code")`, HMAC with the pepper) and sealed for
/// its buyer (for re-display); it is never stored or logged in clear. The contract is in docs/handoff-codes.md.
public struct CodeMinter: Sendable {
    /// Where a code comes from; stored in `handoff_codes.source`.
    public enum Source: String, Sendable, Equatable {
        /// Minted with a payment (one handoff code and one install token per payment).
        case payment
        /// A fresh handoff code mailed to a buyer who has a payment; any number per payment.
        case recovery
    }

    /// A freshly minted code: its text (to show or mail once, never to store), expiry, hash and the event to append.
    public struct Minted: Sendable {
        public var text: String
        public var expiresAt: Date
        public var codeHash: String
        /// The `HandoffCodeMinted` to append in the same transaction (any stream of the buyer's org).
        public var event: NewEvent
    }

    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]

    public init(secrets: IdentitySecrets) {
        self.subjectKeys = SubjectKeys(masterKeys: secrets.masterKeys)
        self.lookupPepper = secrets.lookupPepper
    }

    /// The lookup hash of a code or token (one namespace for both kinds).
    public func codeHash(_ text: String) -> String {
        LookupHash.of(Array(text.utf8), kind: "code", pepper: lookupPepper)
    }

    /// Mints one code of `kind` for buyer `guid` of `org` at `now`, inside `transaction`; the caller appends
    /// `Minted.event` (to the payment's stream for payment codes, to `buyer-<guid>` for recovery codes).
    ///
    /// - `paymentId`: the buyer's payment whose project a redemption answers (for a recovery code: any payment of
    ///   the buyer, e.g. the latest).
    /// - `emailHash`: the lookup hash of the e-mail that redeeming the code verifies, or nil. Only handoff codes
    ///   verify; the buyer must have that e-mail attached (`buyer_emails`), else nothing is verified. The event
    ///   names it by its lookup reference (`LookupRefs`).
    /// - `avoiding`: hashes minted earlier in the same transaction (not yet visible in `handoff_codes`).
    /// - `key`: the buyer's data key when the caller read it already (a payment seals an e-mail and two codes with
    ///   one read); read here when nil. `emailRef`: `emailHash`'s lookup reference when the caller has it.
    /// A recovery code must be of kind `.handoff`. A code whose hash was ever used in any org fails the projection's
    /// insert (the primary key of `handoff_codes`), and `EventLog.transact` runs the command again with new codes.
    /// Refuses 409 (`Refusal.erasedBuyer`) when the buyer's personal data was erased.
    public func mint(
        _ kind: HandoffRedemption.Kind, source: Source, guid: BuyerGuid, paymentId: PaymentID, emailHash: String?,
        org: OrgID, now: Date, avoiding: [String] = [], key: SubjectKeyState? = nil, emailRef: String? = nil,
        in transaction: EventTransaction
    ) throws -> Minted {
        precondition(source == .payment || kind == .handoff, "a recovery code is a handoff code")
        let connection = transaction.connection
        let (bytes, hash) = freshCode(avoiding: avoiding)
        let text = kind == .handoff ? HandoffCode(randomBytes: bytes).text : InstallToken(randomBytes: bytes).text
        let expiresAt = now.addingTimeInterval(kind.lifetime)
        guard let dataKey = try (key ?? subjectKeys.keyFor(org: org.uuid, subject: guid.description, on: connection))
            .key else { throw Refusal.erasedBuyer }
        let sealed = PersonalData.seal(text, field: kind == .handoff ? .handoffCode : .installToken, org: org.uuid,
                                       subject: guid.description, key: dataKey)
        let emailRef = try (kind == .handoff ? emailHash : nil).map {
            try emailRef ?? LookupRefs.ref(.email, hash: $0, org: org.uuid, on: connection)
        }
        let event = try NewEvent(HandoffCodeMinted(
            codeHash: hash, guid: guid.description, paymentId: paymentId.text, kind: kind.rawValue,
            expiresAt: PaymentFields.text(expiresAt), sealedCode: sealed, source: source.rawValue,
            emailRef: emailRef))
        return Minted(text: text, expiresAt: expiresAt, codeHash: hash, event: event)
    }

    /// 5 CSPRNG bytes whose code's hash is not among `avoiding` (codes minted earlier in the same transaction).
    ///
    /// No lookup: a hash used before, in this org or another, is refused by the primary key of `handoff_codes` when
    /// the projection inserts it, and `EventLog.transact` runs the command again with new codes — so no hash is
    /// ever handed out twice. With 2^40 codes that retry is rarer than a lookup per draw is costly (a round trip).
    private func freshCode(avoiding: [String]) -> (bytes: [UInt8], hash: String) {
        while true {
            let bytes = SecureRandom.bytes(HandoffCode.randomByteCount)
            let hash = codeHash(HandoffCode(randomBytes: bytes).text)
            if !avoiding.contains(hash) { return (bytes, hash) }
        }
    }
}
