import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Handoff codes and install tokens: minting one inside a caller's append, and redeeming one for its buyer's guid.
///
/// A code exists only as its lookup hash (`LookupHash.of(code, kind: "code")`, HMAC with the pepper) and sealed for
/// its buyer (for re-display); it is never stored or logged in clear. The contract, including recovery codes, is in
/// docs/handoff-codes.md.
public struct HandoffCodes: Sendable {
    /// Where a code comes from; stored in `handoff_codes.source`.
    public enum Source: String, Sendable, Equatable {
        /// Minted with a payment (one handoff code and one install token per payment).
        case payment
        /// A fresh handoff code mailed to a buyer who has a payment (issue 6); any number per payment.
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

    /// A redeemed code's buyer and the project where its payment was recorded.
    public struct Redeemed: Sendable, Equatable {
        public var guid: BuyerGuid
        public var projectId: ProjectID
    }

    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]

    public init(secrets: IdentitySecrets) {
        self.subjectKeys = SubjectKeys(masterKey: secrets.masterKey)
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
    /// - `emailHash`: the lookup hash (`LookupHash.email`) of the e-mail that redeeming the code verifies, or nil.
    ///   Only handoff codes verify; the buyer must have that e-mail attached (`buyer_emails`), else nothing is
    ///   verified.
    /// - `avoiding`: hashes minted earlier in the same transaction (not yet visible in `handoff_codes`).
    /// A recovery code must be of kind `.handoff`. The code is drawn again when its hash was ever used.
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
            throw PaymentDirectory.erased
        }
        let event = try NewEvent(HandoffCodeMinted(
            codeHash: hash, guid: guid.description, paymentId: paymentId.text, kind: kind.rawValue,
            expiresAt: PaymentFields.text(expiresAt), sealedCode: sealed, source: source.rawValue,
            emailHash: kind == .handoff ? emailHash : nil))
        return Minted(text: text, expiresAt: expiresAt, codeHash: hash, event: event)
    }

    /// Redeems `text` at `now`: the first exchange of a live code spends it (`HandoffCodeRedeemed`, maybe
    /// `EmailVerified`) and answers its buyer; an unknown, malformed, expired or spent code answers nil.
    ///
    /// The code's row is locked (`FOR UPDATE`), so concurrent exchanges of one code queue and exactly one wins.
    /// Comparison is exact: `text` is hashed as given (no case folding, no trimming).
    public func redeem(_ text: String, now: Date, metadata: EventMetadata, store: EventStore) throws -> Redeemed? {
        guard HandoffCode.parse(text) != nil else { return nil }
        let hash = codeHash(text)
        return try store.transact(maxAttempts: 5) { transaction in
            guard let row = try transaction.connection.queryPrepared(Self.lookup, [.text(hash)]).rows.first else {
                return nil
            }
            guard let kind = HandoffRedemption.Kind(rawValue: try row.string("kind")),
                  case .success(let org) = OrgID.parse(try row.string("org_id")),
                  case .success(let guid) = BuyerGuid.parse(try row.string("guid")),
                  case .success(let project) = ProjectID.parse(try row.string("project_id")) else {
                throw APIError(status: 500, code: .internalError, message: "a stored code does not read back")
            }
            let code = HandoffRedemption.Code(
                kind: kind, expiresAt: Date(timeIntervalSince1970: Double(try row.int("expires_us")) / 1_000_000),
                redeemedAt: row.isNull("redeemed_us")
                    ? nil : Date(timeIntervalSince1970: Double(try row.int("redeemed_us")) / 1_000_000),
                emailHash: row["email_hash"],
                emailVerified: row["email_verified"].map { $0 == "t" })
            guard case .redeem(let decided) = HandoffRedemption.decide(code, now: now) else { return nil }
            let paymentId = try row.string("payment_id")
            let events = try decided.map { event in
                switch event {
                case .redeemed(let at):
                    try NewEvent(HandoffCodeRedeemed(codeHash: hash, guid: guid.description, paymentId: paymentId,
                                                     kind: kind.rawValue, redeemedAt: PaymentFields.text(at)))
                case .emailVerified(let emailHash):
                    try NewEvent(EmailVerified(guid: guid.description, emailHash: emailHash, codeHash: hash))
                }
            }
            try transaction.append(org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                                   events: events, metadata: metadata)
            return Redeemed(guid: guid, projectId: project)
        }
    }

    /// The code's row, locked, with its payment's project and whether the e-mail it verifies is verified already.
    static let lookup = """
        SELECT c.org_id::text AS org_id, c.guid::text AS guid, c.payment_id, c.kind, c.email_hash,
            (extract(epoch FROM c.expires_at) * 1000000)::bigint AS expires_us,
            (extract(epoch FROM c.redeemed_at) * 1000000)::bigint AS redeemed_us,
            p.project_id::text AS project_id,
            (SELECT e.verified FROM buyer_emails e WHERE e.guid = c.guid AND e.email_hash = c.email_hash)
                AS email_verified
        FROM handoff_codes c JOIN payments p ON p.org_id = c.org_id AND p.payment_id = c.payment_id
        WHERE c.code_hash = $1
        FOR UPDATE OF c
        """

    /// 5 CSPRNG bytes whose code's hash is not in `handoff_codes` (live or spent) nor `avoiding`.
    private func freshCode(on connection: Connection, avoiding: [String]) throws -> (bytes: [UInt8], hash: String) {
        for _ in 0..<16 {
            let bytes = SecureRandom.bytes(HandoffCode.randomByteCount)
            let hash = codeHash(HandoffCode(randomBytes: bytes).text)
            if avoiding.contains(hash) { continue }
            if try connection.query("SELECT 1 FROM handoff_codes WHERE code_hash = $1", [.text(hash)]).rows.isEmpty {
                return (bytes, hash)
            }
        }
        throw APIError.unavailable("could not draw a unique code; retry")
    }
}
