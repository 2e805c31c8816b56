import Domain
import EventStore
import Foundation
import Postgres

/// The write side of one recovery mail (the `recovery-mail` job), in the two phases of a job (docs/jobs.md):
///
/// `prepare`, in the claim transaction: finds every buyer of the org with the address and a payment, keeps the
/// 20-minute gap per address (`EmailRecovery.decide`), reserves the address for this job, mints a fresh 72 h recovery
/// code for each buyer's newest payment (`HandoffCodeMinted`, committed before the mail leaves: a code nobody was
/// sent is never shown to anyone) — or decides to skip. The worker commits, hands the one mail to SMTP with no
/// transaction open, then in the outcome transaction either `recordSent` (one `RecoveryMailSent` per buyer named,
/// the gap moved, the reservation released: a mail is recorded as sent only after the server's 250) or `release`.
public struct SendRecoveryMail: Sendable {
    /// One `EmailRecoveryRequested`, as the job carries it.
    public struct Request: Sendable, Equatable {
        public var org: UUID
        public var requestId: String
        public var projectId: String
        public var email: SealedValue
        /// The address's lookup hash (resolved from the request's lookup reference, or its version 1 hash).
        public var emailHash: String
        /// The personal-data subject `email` is sealed for (`EmailRecoveryRequested.subject`).
        public var subject: String
        /// `en` or `ru`.
        public var language: String
        /// The request's stream, where `RecoveryMailSent` goes.
        public var stream: String

        public init(org: UUID, requestId: String, projectId: String, email: SealedValue, emailHash: String,
                    subject: String, language: String, stream: String) {
            self.org = org
            self.requestId = requestId
            self.projectId = projectId
            self.email = email
            self.emailHash = emailHash
            self.subject = subject
            self.language = language
            self.stream = stream
        }
    }

    /// What goes into the mail: only ever in memory, never stored in clear.
    public struct Mail: Sendable, Equatable {
        public var address: String
        /// Every buyer the mail names, newest payment first; each has its own code.
        public var buyers: [MailedBuyer]
        /// When the codes expire (all were minted at once).
        public var expiresAt: Date
        public var language: String
        /// What `recordSent` appends once SMTP accepted the mail: one per buyer named.
        public var sent: [RecoveryMailSent]
    }

    /// One buyer of a mail: its purchase line and its own code.
    public struct MailedBuyer: Sendable, Equatable {
        /// The buyer and the payment the line shows.
        public var purchase: EmailRecovery.Candidate
        public var code: String
        /// `<PUBLIC_BASE_URL>/done/<pageToken>` shows the same code.
        public var pageToken: String
        /// The project's return link with the code, when the project has a return scheme.
        public var returnLink: String?
    }

    /// The decision carried out.
    public enum Outcome: Sendable, Equatable {
        case send(Mail)
        case skipped(EmailRecovery.Skip)
    }

    /// A mail should go out, but this worker has no identity secrets to open the address and mint the code.
    public struct MissingIdentitySecrets: Error, Sendable, Equatable {}

    /// Another job's mail to the address is on its way (its reservation has not passed): try again later, when that
    /// mail either moved the gap (this one is then skipped) or failed and released the address.
    public struct AnotherMailInFlight: Error, Sendable, Equatable {}

    /// Nil when this worker has no identity secrets: then a mail that should go out throws `MissingIdentitySecrets`.
    private let context: IdentityContext?
    private let gap: TimeInterval

    public init(_ context: IdentityContext?, gap: TimeInterval = EmailRecovery.gap) {
        self.context = context
        self.gap = gap
    }

    /// The claim phase of `request` for job `jobId` at `now`, inside `transaction`: decides, reserves the address
    /// until `reserveUntil` (the attempt's lease) and mints the codes. Throws `MissingIdentitySecrets` without them,
    /// `AnotherMailInFlight` while another job holds the address; refuses 409 when the buyer's data was erased
    /// (`Refusal.erasedBuyer`).
    public func prepare(_ request: Request, jobId: Int, now: Date, reserveUntil: Date, metadata: EventMetadata,
                        transaction: EventTransaction) throws -> Outcome {
        let connection = transaction.connection
        let org = request.org.lowercasedText
        var state = EmailRecovery.State(candidates: try candidates(org: org, emailHash: request.emailHash,
                                                                   on: connection),
                                        lastMailAt: nil, addressReadable: true)
        var reservation: (job: Int, until: Date)?
        if !state.candidates.isEmpty {
            (state.lastMailAt, reservation) = try gapRow(org: org, emailHash: request.emailHash, on: connection)
        }
        if case .skip(let skip) = EmailRecovery.decide(state, now: now, gap: gap) {
            return try skipped(skip, request, state: state, now: now, metadata: metadata, transaction: transaction)
        }
        if let reservation, reservation.job != jobId, reservation.until > now { throw AnotherMailInFlight() }
        guard let context else { throw MissingIdentitySecrets() }
        let revealed = try context.subjectKeys.reveal(request.email, field: .email, org: request.org,
                                                      subject: request.subject, on: connection)
        var address = ""
        if case .value(let opened) = revealed { address = opened } else { state.addressReadable = false }
        guard case .send(let named) = EmailRecovery.decide(state, now: now, gap: gap) else {
            return try skipped(.erased, request, state: state, now: now, metadata: metadata, transaction: transaction)
        }
        let scheme = try returnScheme(project: request.projectId, org: org, on: connection)
        var buyers: [MailedBuyer] = []
        var sent: [RecoveryMailSent] = []
        var expiresAt = now
        for candidate in named {
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
            sent.append(RecoveryMailSent(requestId: request.requestId, guid: candidate.guid,
                                         paymentId: candidate.paymentId, codeHash: minted.codeHash,
                                         language: request.language, jobId: jobId))
            expiresAt = minted.expiresAt
            buyers.append(MailedBuyer(purchase: candidate, code: minted.text, pageToken: context.pageTokens.seal(code),
                                      returnLink: scheme.map { HandoffLinks.returnLink(scheme: $0, code: code) }))
        }
        try connection.queryPrepared("""
            UPDATE recovery_mail_gaps SET reserved_by_job = $3::bigint, reserved_until = to_timestamp($4::float8)
            WHERE org_id = $1::uuid AND email_hash = $2
            """, [.text(org), .text(request.emailHash), .int(jobId), .double(reserveUntil.timeIntervalSince1970)])
        return .send(Mail(address: address, buyers: buyers, expiresAt: expiresAt, language: request.language,
                          sent: sent))
    }

    /// Records why no mail goes out (`RecoveryMailSkipped`, naming the address's buyers) and answers the skip.
    private func skipped(_ skip: EmailRecovery.Skip, _ request: Request, state: EmailRecovery.State, now: Date,
                         metadata: EventMetadata, transaction: EventTransaction) throws -> Outcome {
        let event = RecoveryMailSkipped(requestId: request.requestId, reason: skip.rawValue,
                                        guids: state.candidates.map(\.guid), skippedAt: PaymentFields.text(now))
        try transaction.append(org: request.org, stream: request.stream, expectedVersion: .any,
                               events: [try NewEvent(event)], metadata: metadata)
        return .skipped(skip)
    }

    /// The outcome phase after SMTP accepted `mail` at `now`: appends its `RecoveryMailSent` events to the request's
    /// stream, moves the address's gap and releases the reservation of job `jobId`.
    public func recordSent(_ mail: Mail, request: Request, jobId: Int, now: Date, metadata: EventMetadata,
                           transaction: EventTransaction) throws {
        try transaction.append(org: request.org, stream: request.stream, expectedVersion: .any,
                               events: try mail.sent.map { try NewEvent($0) }, metadata: metadata)
        try transaction.connection.queryPrepared("""
            UPDATE recovery_mail_gaps SET last_mail_at = to_timestamp($3::float8), reserved_by_job = NULL,
                reserved_until = NULL
            WHERE org_id = $1::uuid AND email_hash = $2
            """, [.text(request.org.lowercasedText), .text(request.emailHash),
                  .double(now.timeIntervalSince1970)])
    }

    /// The outcome phase after SMTP did not take the mail: releases the address if job `jobId` still holds it (the
    /// codes minted for it stay unused; the retry mints new ones).
    public func release(_ request: Request, jobId: Int, transaction: EventTransaction) throws {
        try transaction.connection.queryPrepared("""
            UPDATE recovery_mail_gaps SET reserved_by_job = NULL, reserved_until = NULL
            WHERE org_id = $1::uuid AND email_hash = $2 AND reserved_by_job = $3::bigint
            """, [.text(request.org.lowercasedText), .text(request.emailHash), .int(jobId)])
    }

    /// Every buyer of `org` with the address attached and a payment, each with its newest payment, newest first
    /// (at most `EmailRecovery.maxBuyersPerMail`).
    private func candidates(org: String, emailHash: String, on connection: Connection) throws
        -> [EmailRecovery.Candidate]
    {
        try connection.queryPrepared("""
            SELECT guid, payment_id, product_id, amount, currency, paid_us FROM (
                SELECT DISTINCT ON (e.guid) e.guid, p.payment_id, p.product_id, p.amount, p.currency,
                    (extract(epoch FROM p.recorded_at) * 1000000)::bigint AS paid_us
                FROM buyer_emails e JOIN payments p ON p.org_id = e.org_id AND p.guid = e.guid
                WHERE e.org_id = $1::uuid AND e.email_hash = $2
                ORDER BY e.guid, p.recorded_at DESC, p.payment_id
            ) newest ORDER BY paid_us DESC, guid LIMIT $3
            """, [.text(org), .text(emailHash), .int(EmailRecovery.maxBuyersPerMail)]).rows.map { row in
            EmailRecovery.Candidate(
                guid: try row.string("guid"), paymentId: try row.string("payment_id"),
                productId: try row.string("product_id"), amount: try row.int("amount"),
                currency: try row.string("currency"),
                paidAt: Date(timeIntervalSince1970: Double(try row.int("paid_us")) / 1_000_000))
        }
    }

    /// The last mail SMTP accepted for the address (nil for never) and the job holding it now, if any; the gap row
    /// created and locked for this transaction, so two jobs for one address serialize here.
    private func gapRow(org: String, emailHash: String, on connection: Connection) throws
        -> (lastMail: Date?, reservation: (job: Int, until: Date)?)
    {
        try connection.queryPrepared("""
            INSERT INTO recovery_mail_gaps (org_id, email_hash, last_mail_at) VALUES ($1::uuid, $2, to_timestamp(0))
            ON CONFLICT DO NOTHING
            """, [.text(org), .text(emailHash)])
        let row = try connection.queryPrepared("""
            SELECT extract(epoch FROM last_mail_at)::float8 AS last, reserved_by_job,
                extract(epoch FROM reserved_until)::float8 AS reserved_until
            FROM recovery_mail_gaps WHERE org_id = $1::uuid AND email_hash = $2 FOR UPDATE
            """, [.text(org), .text(emailHash)]).rows[0]
        let seconds = try row.double("last")
        var reservation: (job: Int, until: Date)?
        if !row.isNull("reserved_by_job") {
            reservation = (try row.int("reserved_by_job"),
                           Date(timeIntervalSince1970: try row.double("reserved_until")))
        }
        return (seconds == 0 ? nil : Date(timeIntervalSince1970: seconds), reservation)
    }

    /// The project's return scheme, or nil when it has none (or one that no longer parses).
    private func returnScheme(project: String, org: String, on connection: Connection) throws -> ReturnScheme? {
        guard let scheme = try connection.queryPrepared(
            "SELECT return_scheme FROM projects WHERE project_id = $1::uuid AND org_id = $2::uuid",
            [.text(project), .text(org)]).first?["return_scheme"],
            case .success(let parsed) = ReturnScheme.parse(scheme) else { return nil }
        return parsed
    }
}
