import Domain
import EventStore
import Foundation
import HTTPClient
import Postgres

/// What the `recovery-mail` job kind needs: the SMTP server and sender, the master key to open the sealed address,
/// the code minter, and the public base URL for the post-payment link.
public struct RecoveryMailSettings: Sendable {
    public var smtp: SMTPClient
    public var fromAddress: String
    public var fromName: String?
    /// Opens the sealed address; nil without `HANDOFF_MASTER_KEY` (jobs then fail and retry).
    public var subjectKeys: SubjectKeys?
    /// Nil until the shared minting is wired (jobs for known buyers then go `dead`, see `RecoveryCodeMinter`).
    public var minter: (any RecoveryCodeMinter)?
    /// `PUBLIC_BASE_URL` without a trailing `/`.
    public var publicBaseURL: String
    /// At most one mail per address per this many seconds (20 minutes).
    public var gapSeconds: Double

    public init(smtp: SMTPClient, fromAddress: String, fromName: String?, subjectKeys: SubjectKeys?,
                minter: (any RecoveryCodeMinter)?, publicBaseURL: String, gapSeconds: Double = 20 * 60) {
        self.smtp = smtp
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.subjectKeys = subjectKeys
        self.minter = minter
        self.publicBaseURL = publicBaseURL
        self.gapSeconds = gapSeconds
    }
}

/// The `recovery-mail` job kind (queue `mail`): made by every `EmailRecoveryRequested`; sends the recovery mail when
/// the address belongs to a buyer of the org with a payment, at most once per address per 20 minutes, silently.
///
/// The order inside the job's transaction keeps the window in which a crash can repeat a mail as small as it can be:
/// look up, check and move the gap, mint the code, append `RecoveryMailSent` (all uncommitted), then hand the mail to
/// SMTP, then commit. Only a crash between the server's 250 reply and the commit sends a mail twice (with the same
/// `Message-ID`, `<job-<id>@…>`); any failure before the 250 rolls everything back.
public enum RecoveryMailJob {
    public static let name = "recovery-mail"
    public static let queue = "mail"
    /// 30 s, 2 min, 10 min, 1 h, 6 h, then `dead`.
    public static let retryDelays: [Double] = [30, 120, 600, 3600, 21600]

    /// The kind with its effect.
    public static func kind(settings: RecoveryMailSettings) -> JobKind {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: jobs(for:)) { run in
            try perform(run, settings: settings)
        }
    }

    /// One job per `EmailRecoveryRequested` (dedupe key `recovery-mail:<event id>`), carrying the event's data.
    public static func jobs(for event: RecordedEvent) throws -> [NewJob] {
        guard event.eventType == EmailRecoveryRequested.eventType else { return [] }
        let request = try event.decode(EmailRecoveryRequested.self)
        let eventId = event.eventId.uuidString.lowercased()
        return [NewJob(kind: name, orgId: event.orgId, payload: .object([
            "requestId": .string(request.requestId), "projectId": .string(request.projectId),
            "email": .string(request.email.text), "emailHash": .string(request.emailHash),
            "language": .string(request.language), "stream": .string(event.streamId), "eventId": .string(eventId),
        ]), dedupeKey: "recovery-mail:\(eventId)")]
    }

    static func perform(_ run: JobRun, settings: RecoveryMailSettings) throws -> String {
        let payload = run.job.payload
        guard let org = run.job.orgId, let requestId = payload["requestId"]?.stringValue,
              let projectId = payload["projectId"]?.stringValue, let emailHash = payload["emailHash"]?.stringValue,
              let sealed = payload["email"]?.stringValue.flatMap(SealedValue.init),
              let stream = payload["stream"]?.stringValue, let eventId = payload["eventId"]?.stringValue
        else { throw JobFailure("malformed recovery-mail payload", permanent: true) }
        let language = payload["language"]?.stringValue == "ru" ? "ru" : "en"
        let connection = run.transaction.connection
        let orgText = org.uuidString.lowercased()

        guard let buyer = try connection.queryPrepared("""
            SELECT e.guid::text AS guid, p.payment_id FROM buyer_emails e
            JOIN payments p ON p.org_id = e.org_id AND p.guid = e.guid
            WHERE e.org_id = $1::uuid AND e.email_hash = $2
            ORDER BY p.recorded_at DESC, p.payment_id LIMIT 1
            """, [.text(orgText), .text(emailHash)]).first
        else { return "skipped: no buyer with a payment has this address" }

        try connection.queryPrepared("""
            INSERT INTO recovery_mail_gaps (org_id, email_hash, last_mail_at) VALUES ($1::uuid, $2, to_timestamp(0))
            ON CONFLICT DO NOTHING
            """, [.text(orgText), .text(emailHash)])
        let last = try connection.queryPrepared("""
            SELECT extract(epoch FROM last_mail_at)::float8 AS last FROM recovery_mail_gaps
            WHERE org_id = $1::uuid AND email_hash = $2 FOR UPDATE
            """, [.text(orgText), .text(emailHash)]).rows[0].double("last")
        if run.now.timeIntervalSince1970 - last < settings.gapSeconds {
            return "skipped: a recovery mail went to this address less than 20 minutes ago"
        }

        guard let subjectKeys = settings.subjectKeys else {
            throw JobFailure("HANDOFF_MASTER_KEY is not configured on this worker")
        }
        let subject = RecoveryStreams.emailSubject(emailHash: emailHash)
        guard case .value(let address) = try subjectKeys.reveal(sealed, field: .email, org: org, subject: subject,
                                                                on: connection)
        else { return "skipped: the address was erased" }
        let guid = try buyer.string("guid")
        let paymentId = try buyer.string("payment_id")

        guard let minter = settings.minter else {
            throw JobFailure("no recovery code without the identity secrets on this worker", permanent: true)
        }
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(run.job.id)",
                                     correlationId: requestId, causationId: eventId)
        let minted = try minter.mintRecoveryCode(org: org, guid: guid, paymentId: paymentId, emailHash: emailHash,
                                                 now: run.now, metadata: metadata, transaction: run.transaction)
        let scheme = try connection.queryPrepared(
            "SELECT return_scheme FROM projects WHERE project_id = $1::uuid AND org_id = $2::uuid",
            [.text(projectId), .text(orgText)]).first?["return_scheme"]
        var returnLink: String?
        if let scheme, case .success(let parsed) = ReturnScheme.parse(scheme),
           let code = HandoffCode.parse(minted.code) {
            returnLink = HandoffLinks.returnLink(scheme: parsed, code: code)
        }

        try run.transaction.append(
            org: org, stream: stream, expectedVersion: .any,
            events: [try NewEvent(RecoveryMailSent(requestId: requestId, guid: guid, paymentId: paymentId,
                                                   codeHash: minted.codeHash, language: language, jobId: run.job.id))],
            metadata: metadata)
        try connection.queryPrepared("""
            UPDATE recovery_mail_gaps SET last_mail_at = to_timestamp($3::float8)
            WHERE org_id = $1::uuid AND email_hash = $2
            """, [.text(orgText), .text(emailHash), .double(run.now.timeIntervalSince1970)])

        let words = RecoveryMail(language: language, code: minted.code, returnLink: returnLink,
                                 postPaymentURL: settings.publicBaseURL + "/done/" + minted.pageToken,
                                 expiresAt: minted.expiresAt)
        let domain = settings.fromAddress.split(separator: "@").last.map(String.init) ?? "handoff.local"
        let content = MailContent(
            fromAddress: settings.fromAddress, fromName: settings.fromName, to: address, subject: words.subject,
            text: words.text, html: words.html, messageID: "job-\(run.job.id)@\(domain)", date: run.now)
        do {
            try deliver(content, smtp: settings.smtp)
        } catch let error as SMTPError {
            let reply = error.replyCode.map { " \($0)" } ?? ""
            throw JobFailure("SMTP \(error.kind)\(reply)", permanent: error.isPermanent)
        }
        return "sent"
    }

    /// Encodes and sends the mail (untyped `throws`, so callers can catch `SMTPError` with a plain cast).
    private static func deliver(_ content: MailContent, smtp: SMTPClient) throws {
        try smtp.send(try MailMessage(content))
    }
}
