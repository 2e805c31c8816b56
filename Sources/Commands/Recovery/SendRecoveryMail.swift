import Domain
import EventStore
import Foundation
import Postgres

/// The write side of one recovery mail (the `recovery-mail` job): inside the job's transaction, finds the buyer of
/// the org with a payment under the address, keeps the 20-minute gap per address, mints a fresh 72 h recovery code
/// and appends `RecoveryMailSent` — or decides to skip (`EmailRecovery.decide`). The worker then hands the mail to
/// SMTP and commits; a failure before the server's 250 rolls everything back.
public struct SendRecoveryMail: Sendable {
    /// One `EmailRecoveryRequested`, as the job carries it.
    public struct Request: Sendable, Equatable {
        public var org: UUID
        public var requestId: String
        public var projectId: String
        public var email: SealedValue
        public var emailHash: String
        /// `en` or `ru`.
        public var language: String
        /// The request's stream, where `RecoveryMailSent` goes.
        public var stream: String

        public init(org: UUID, requestId: String, projectId: String, email: SealedValue, emailHash: String,
                    language: String, stream: String) {
            self.org = org
            self.requestId = requestId
            self.projectId = projectId
            self.email = email
            self.emailHash = emailHash
            self.language = language
            self.stream = stream
        }
    }

    /// What goes into the mail: only ever in memory, never stored in clear.
    public struct Mail: Sendable, Equatable {
        public var address: String
        public var code: String
        public var expiresAt: Date
        /// `<PUBLIC_BASE_URL>/done/<pageToken>` shows the same code.
        public var pageToken: String
        /// The project's return link with the code, when the project has a return scheme.
        public var returnLink: String?
        public var language: String
    }

    /// The decision carried out.
    public enum Outcome: Sendable, Equatable {
        case send(Mail)
        case skipped(EmailRecovery.Skip)
    }

    /// A mail should go out, but this worker has no identity secrets to open the address and mint the code.
    public struct MissingIdentitySecrets: Error, Sendable, Equatable {}

    /// Nil when this worker has no identity secrets: then a mail that should go out throws `MissingIdentitySecrets`.
    private let context: IdentityContext?
    private let gap: TimeInterval

    public init(_ context: IdentityContext?, gap: TimeInterval = EmailRecovery.gap) {
        self.context = context
        self.gap = gap
    }

    /// Carries out `request` of job `jobId` at `now` inside `transaction` (uncommitted; the caller commits after
    /// the mail was accepted). Throws `MissingIdentitySecrets` without them; refuses 409 when the buyer's data was
    /// erased (`Refusal.erasedBuyer`).
    public func run(_ request: Request, jobId: Int, now: Date, metadata: EventMetadata,
                    transaction: EventTransaction) throws -> Outcome {
        let connection = transaction.connection
        let org = request.org.uuidString.lowercased()
        var state = EmailRecovery.State(candidate: nil, lastMailAt: nil, addressReadable: true)
        if let buyer = try connection.queryPrepared("""
            SELECT e.guid, p.payment_id FROM buyer_emails e
            JOIN payments p ON p.org_id = e.org_id AND p.guid = e.guid
            WHERE e.org_id = $1::uuid AND e.email_hash = $2
            ORDER BY p.recorded_at DESC, p.payment_id LIMIT 1
            """, [.text(org), .text(request.emailHash)]).first {
            state.candidate = .init(guid: try buyer.string("guid"), paymentId: try buyer.string("payment_id"))
            state.lastMailAt = try lastMail(org: org, emailHash: request.emailHash, on: connection)
        }
        if case .skip(let skip) = EmailRecovery.decide(state, now: now, gap: gap) { return .skipped(skip) }
        guard let context else { throw MissingIdentitySecrets() }
        let subject = RecoveryStreams.emailSubject(emailHash: request.emailHash)
        let revealed = try context.subjectKeys.reveal(request.email, field: .email, org: request.org,
                                                      subject: subject, on: connection)
        var address = ""
        if case .value(let opened) = revealed { address = opened } else { state.addressReadable = false }
        guard case .send(let candidate) = EmailRecovery.decide(state, now: now, gap: gap) else {
            return .skipped(.erased)
        }
        guard let guid = BuyerGuid(stored: candidate.guid),
              case .success(let paymentId) = PaymentID.parse(candidate.paymentId) else {
            throw InconsistentState("a recovery code for a malformed guid or payment id")
        }
        let minted = try context.codes.mint(.handoff, source: .recovery, guid: guid, paymentId: paymentId,
                                            emailHash: request.emailHash, org: OrgID(request.org), now: now,
                                            in: transaction)
        guard let code = HandoffCode.parse(minted.text) else {
            throw InconsistentState("a minted recovery code did not parse")
        }
        try transaction.append(org: request.org, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                               events: [minted.event], metadata: metadata)
        try transaction.append(
            org: request.org, stream: request.stream, expectedVersion: .any,
            events: [try NewEvent(RecoveryMailSent(
                requestId: request.requestId, guid: candidate.guid, paymentId: candidate.paymentId,
                codeHash: minted.codeHash, language: request.language, jobId: jobId))],
            metadata: metadata)
        try connection.queryPrepared("""
            UPDATE recovery_mail_gaps SET last_mail_at = to_timestamp($3::float8)
            WHERE org_id = $1::uuid AND email_hash = $2
            """, [.text(org), .text(request.emailHash), .double(now.timeIntervalSince1970)])
        return .send(Mail(address: address, code: minted.text, expiresAt: minted.expiresAt,
                          pageToken: context.pageTokens.seal(code),
                          returnLink: try returnLink(project: request.projectId, org: org, code: code,
                                                     on: connection),
                          language: request.language))
    }

    /// The last mail to the address (nil for never), its gap row created and locked for this transaction.
    private func lastMail(org: String, emailHash: String, on connection: Connection) throws -> Date? {
        try connection.queryPrepared("""
            INSERT INTO recovery_mail_gaps (org_id, email_hash, last_mail_at) VALUES ($1::uuid, $2, to_timestamp(0))
            ON CONFLICT DO NOTHING
            """, [.text(org), .text(emailHash)])
        let seconds = try connection.queryPrepared("""
            SELECT extract(epoch FROM last_mail_at)::float8 AS last FROM recovery_mail_gaps
            WHERE org_id = $1::uuid AND email_hash = $2 FOR UPDATE
            """, [.text(org), .text(emailHash)]).rows[0].double("last")
        return seconds == 0 ? nil : Date(timeIntervalSince1970: seconds)
    }

    /// The project's return link with `code`, or nil when the project has no (valid) return scheme.
    private func returnLink(project: String, org: String, code: HandoffCode, on connection: Connection) throws
        -> String?
    {
        guard let scheme = try connection.queryPrepared(
            "SELECT return_scheme FROM projects WHERE project_id = $1::uuid AND org_id = $2::uuid",
            [.text(project), .text(org)]).first?["return_scheme"],
            case .success(let parsed) = ReturnScheme.parse(scheme) else { return nil }
        return HandoffLinks.returnLink(scheme: parsed, code: code)
    }
}
