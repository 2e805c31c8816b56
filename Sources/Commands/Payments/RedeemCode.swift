import Domain
import EventStore
import Foundation
import Postgres

/// Redeems a handoff code or install token for its buyer's guid (`GET /public/handoff/resolve`), once.
///
/// The first exchange of a live code spends it (`HandoffCodeRedeemed`, maybe `EmailVerified`, decided by
/// `HandoffRedemption`) and answers its buyer; an unknown, malformed, expired or spent code answers nil. The code's
/// row is locked (`FOR UPDATE`), so concurrent exchanges of one code queue and exactly one wins. Comparison is
/// exact: the text is hashed as given (no case folding, no trimming). A known code refused as spent or expired
/// records `HandoffCodeRefused` (the reason, for the buyer's timeline; the device sees only the 404).
public struct RedeemCode: Sendable {
    /// A redeemed code's buyer and the project where its payment was recorded.
    public struct Redeemed: Sendable, Equatable {
        public var guid: BuyerGuid
        public var projectId: ProjectID
    }

    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// Redeems `text` at `now`; nil for every kind of miss.
    public func run(_ text: String, now: Date, metadata: EventMetadata) throws -> Redeemed? {
        guard HandoffCode.parse(text) != nil else { return nil }
        let hash = context.codes.codeHash(text)
        // The code's hash names its org (`handoff_code_org`), set with BEGIN: the transaction sees that org only.
        return try context.log.transact(in: .orgOf(.handoffCode, .text(hash))) { transaction in
            guard let row = try transaction.connection.queryPrepared(Self.lookup, [.text(hash)]).rows.first else {
                return nil
            }
            guard let kind = HandoffRedemption.Kind(rawValue: try row.string("kind")),
                  case .success(let org) = OrgID.parse(try row.string("org_id")),
                  let guid = BuyerGuid(stored: try row.string("guid")),
                  case .success(let project) = ProjectID.parse(try row.string("project_id")) else {
                throw InconsistentState("a stored code does not read back")
            }
            let code = HandoffRedemption.Code(
                kind: kind, expiresAt: Date(timeIntervalSince1970: Double(try row.int("expires_us")) / 1_000_000),
                redeemedAt: row.isNull("redeemed_us")
                    ? nil : Date(timeIntervalSince1970: Double(try row.int("redeemed_us")) / 1_000_000),
                emailHash: row["email_hash"],
                emailVerified: row["email_verified"].map { $0 == "t" },
                source: HandoffRedemption.Source(rawValue: try row.string("source")) ?? .payment,
                emailVerification: EmailVerification(rawValue: try row.string("email_verification")) ?? .payment)
            let paymentId = try row.string("payment_id")
            let decision = HandoffRedemption.decide(code, now: now)
            guard case .redeem(let decided) = decision else {
                if case .refused(let refusal) = decision, refusal != .unknown {
                    // The device gets the uniform 404; the buyer's timeline gets the reason.
                    let refused = HandoffCodeRefused(codeHash: hash, guid: guid.description, paymentId: paymentId,
                                                     kind: kind.rawValue, reason: "\(refusal)",
                                                     refusedAt: PaymentFields.text(now))
                    try transaction.append(org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                                           events: [try NewEvent(refused)], metadata: metadata)
                }
                return nil
            }
            let events = try decided.map { event in
                switch event {
                case .redeemed(let at):
                    try NewEvent(HandoffCodeRedeemed(codeHash: hash, guid: guid.description, paymentId: paymentId,
                                                     kind: kind.rawValue, redeemedAt: PaymentFields.text(at)))
                case .emailVerified(let emailHash):
                    try NewEvent(EmailVerified(
                        guid: guid.description,
                        emailRef: LookupRefs.ref(.email, hash: emailHash, org: org.uuid, on: transaction.connection),
                        codeHash: hash))
                }
            }
            try transaction.append(org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                                   events: events, metadata: metadata)
            return Redeemed(guid: guid, projectId: project)
        }
    }

    /// The code's row, locked, with its payment's project and that project's e-mail verification rule, and whether
    /// the e-mail it verifies is verified already.
    static let lookup = """
        SELECT c.org_id::text AS org_id, c.guid, c.payment_id, c.kind, c.email_hash, c.source,
            (extract(epoch FROM c.expires_at) * 1000000)::bigint AS expires_us,
            (extract(epoch FROM c.redeemed_at) * 1000000)::bigint AS redeemed_us,
            p.project_id::text AS project_id,
            (SELECT j.email_verification FROM projects j WHERE j.project_id = p.project_id) AS email_verification,
            (SELECT e.verified FROM buyer_emails e WHERE e.guid = c.guid AND e.email_hash = c.email_hash)
                AS email_verified
        FROM handoff_codes c JOIN payments p ON p.org_id = c.org_id AND p.payment_id = c.payment_id
        WHERE c.code_hash = $1
        FOR UPDATE OF c
        """
}
