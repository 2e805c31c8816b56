import Commands
import Domain
import EventStore
import Foundation
import HTTPClient

/// What the `recovery-mail` job kind needs: the SMTP server and sender, the write model's `SendRecoveryMail`, and the
/// public base URL for the post-payment link.
public struct RecoveryMailSettings: Sendable {
    public var smtp: SMTPClient
    public var fromAddress: String
    public var fromName: String?
    /// Decides, mints and records inside the job's transaction; without identity secrets it refuses every mail
    /// that should go out (those jobs go `dead`, replayable with `handoff jobs retry` once the secrets are set).
    public var sender: SendRecoveryMail
    /// `PUBLIC_BASE_URL` without a trailing `/`.
    public var publicBaseURL: String

    public init(smtp: SMTPClient, fromAddress: String, fromName: String?, sender: SendRecoveryMail,
                publicBaseURL: String) {
        self.smtp = smtp
        self.fromAddress = fromAddress
        self.fromName = fromName
        self.sender = sender
        self.publicBaseURL = publicBaseURL
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
        let request = SendRecoveryMail.Request(org: org, requestId: requestId, projectId: projectId, email: sealed,
                                               emailHash: emailHash, language: language, stream: stream)
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(run.job.id)",
                                     correlationId: requestId, causationId: eventId)
        let outcome: SendRecoveryMail.Outcome
        do {
            outcome = try settings.sender.run(request, jobId: run.job.id, now: run.now, metadata: metadata,
                                              transaction: run.transaction)
        } catch is SendRecoveryMail.MissingIdentitySecrets {
            throw JobFailure("no recovery code without the identity secrets on this worker", permanent: true)
        } catch let refusal as Refusal where refusal.kind == .conflict {
            // The buyer's personal-data key was destroyed: no code can be sealed for them, now or later.
            throw JobFailure("no recovery code: \(refusal.message)", permanent: true)
        } catch let error as InconsistentState {
            throw JobFailure(error.message, permanent: true)
        }
        guard case .send(let mail) = outcome else {
            if case .skipped(let skip) = outcome { return "skipped: \(skip.explanation)" }
            return "skipped"
        }
        let entries = mail.buyers.map { buyer in
            RecoveryMail.Entry(productId: buyer.purchase.productId, amount: buyer.purchase.amount,
                               currency: buyer.purchase.currency, paidAt: buyer.purchase.paidAt, code: buyer.code,
                               returnLink: buyer.returnLink,
                               postPaymentURL: settings.publicBaseURL + "/done/" + buyer.pageToken)
        }
        let words = RecoveryMail(language: mail.language, entries: entries, expiresAt: mail.expiresAt)
        let domain = settings.fromAddress.split(separator: "@").last.map(String.init) ?? "handoff.local"
        let content = MailContent(
            fromAddress: settings.fromAddress, fromName: settings.fromName, to: mail.address, subject: words.subject,
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
