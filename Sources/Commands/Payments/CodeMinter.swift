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
    /// A recovery code must be of kind `.handoff`. The code is drawn again when its hash was ever used. Refuses 409
    /// (`Refusal.erasedBuyer`) when the buyer's personal data was erased, 503 when no unused code could be drawn.
    public func mint(
        _ kind: HandoffRedemption.Kind, source: Source, guid: BuyerGuid, paymentId: PaymentID, emailHash: String?,
        org: OrgID, now: Date, avoiding: [String] = [], in transaction: EventTransaction
    ) throws -> Minted {
        precondition(source == .payment || kind == .handoff, "a recovery code is a handoff code")
        let connection = transaction.connection
        let (bytes, hash) = try freshCode(on: connection, avoiding: avoiding)
        let text = kind == .handoff ? HandoffCode(randomBytes: bytes).text : InstallToken(randomBytes: bytes).text
        let expiresAt = now.addingTimeInterval(kind.lifetime)
        guard let sealed = try subjectKeys.seal(text, field: kind == .handoff ? .handoffCode : .installToken,
                                                org: org.uuid, subject: guid.description, on: connection) else {
            throw Refusal.erasedBuyer
        }
        let emailRef = try (kind == .handoff ? emailHash : nil).map {
            try LookupRefs.ref(.email, hash: $0, org: org.uuid, on: connection)
        }
        let event = try NewEvent(HandoffCodeMinted(
            codeHash: hash, guid: guid.description, paymentId: paymentId.text, kind: kind.rawValue,
            expiresAt: PaymentFields.text(expiresAt), sealedCode: sealed, source: source.rawValue,
            emailRef: emailRef))
        return Minted(text: text, expiresAt: expiresAt, codeHash: hash, event: event)
    }

    /// 5 CSPRNG bytes whose code's hash is not among the org's codes in `handoff_codes` (live or spent) nor
    /// `avoiding`. Row-level security hides other orgs' codes; should the hash be one of theirs, the primary key of
    /// `handoff_codes` refuses the projection's insert and `EventLog.transact` runs the command again with new codes,
    /// so no hash is ever handed out twice in any org (an owner's lookup per draw cost more than that retry will).
    private func freshCode(on connection: Connection, avoiding: [String]) throws -> (bytes: [UInt8], hash: String) {
        for _ in 0..<16 {
            let bytes = SecureRandom.bytes(HandoffCode.randomByteCount)
            let hash = codeHash(HandoffCode(randomBytes: bytes).text)
            if avoiding.contains(hash) { continue }
            if try connection.queryPrepared("SELECT 1 FROM handoff_codes WHERE code_hash = $1", [.text(hash)]).rows
                .isEmpty {
                return (bytes, hash)
            }
        }
        throw Refusal.unavailable("could not draw a unique code; retry")
    }
}
