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
    /// Decides and mints in the claim phase, records the mail in the outcome phase; without identity secrets it
    /// refuses every mail that should go out (those jobs go `dead`, replayable with `handoff jobs retry` once the
    /// secrets are set).
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
/// Two phases, no transaction open while SMTP runs (docs/jobs.md): the claim transaction looks up, checks the gap,
/// reserves the address for the job and mints the codes, and commits; the mail goes to SMTP; the outcome
/// transaction appends `RecoveryMailSent` and moves the gap only after the server's 250 — or, when SMTP failed,
/// releases the address and climbs the ladder (a 5xx reply is permanent). Only a crash between the 250 and the
/// outcome's commit sends a mail twice (the retry carries the same `Message-ID`, `<job-<id>@…>`).
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

    /// One job per `EmailRecoveryRequested` (dedupe key `recovery-mail:<event id>`), carrying the event's data: its
    /// lookup reference `emailRef` (a version 1 event's `emailHash` instead), resolved when the job runs.
    public static func jobs(for event: RecordedEvent) throws -> [NewJob] {
        guard event.eventType == EmailRecoveryRequested.eventType else { return [] }
        let request = try event.decode(EmailRecoveryRequested.self)
        let eventId = event.eventId.lowercasedText
        var payload: [String: EventJSON] = [
            "requestId": .string(request.requestId), "projectId": .string(request.projectId),
            "email": .string(request.email.text), "language": .string(request.language),
            "stream": .string(event.streamId), "eventId": .string(eventId),
        ]
        if let ref = request.emailRef { payload["emailRef"] = .string(ref) }
        if let hash = request.emailHash { payload["emailHash"] = .string(hash) }
        return [NewJob(kind: name, orgId: event.orgId, payload: .object(payload),
                       dedupeKey: "recovery-mail:\(eventId)")]
    }

    static func perform(_ run: JobRun, settings: RecoveryMailSettings) throws -> JobPlan {
        let payload = run.job.payload
        guard let org = run.job.orgId, let requestId = payload["requestId"]?.stringValue,
              let projectId = payload["projectId"]?.stringValue,
              let lookup = payload["emailRef"]?.stringValue ?? payload["emailHash"]?.stringValue,
              let sealed = payload["email"]?.stringValue.flatMap(SealedValue.init),
              let stream = payload["stream"]?.stringValue, let eventId = payload["eventId"]?.stringValue
        else { throw JobFailure("malformed recovery-mail payload", permanent: true) }
        let emailHash: String
        if payload["emailRef"] == nil {
            emailHash = lookup
        } else {
            guard let resolved = try LookupRefs.hash(of: lookup, org: org, on: run.transaction.connection) else {
                throw JobFailure("the address's lookup reference was erased", permanent: true)
            }
            emailHash = resolved
        }
        let language = payload["language"]?.stringValue == "ru" ? "ru" : "en"
        let request = SendRecoveryMail.Request(org: org, requestId: requestId, projectId: projectId, email: sealed,
                                               emailHash: emailHash, subject: RecoveryStreams.emailSubject(
                                                   emailRef: lookup),
                                               language: language, stream: stream)
        let jobId = run.job.id
        // SMTP's own bound: connect and session timeouts.
        let timeout = settings.smtp.configuration.connectTimeout + settings.smtp.configuration.totalTimeout
        let metadata = EventMetadata(actor: Actor(kind: .worker, id: queue), requestId: "job-\(jobId)",
                                     correlationId: requestId, causationId: eventId)
        let outcome: SendRecoveryMail.Outcome
        do {
            outcome = try settings.sender.prepare(request, jobId: jobId, now: run.now,
                                                  reserveUntil: run.leaseUntil(effectTimeout: timeout),
                                                  metadata: metadata, transaction: run.transaction)
        } catch is SendRecoveryMail.MissingIdentitySecrets {
            throw JobFailure("no recovery code without the identity secrets on this worker", permanent: true)
        } catch is SendRecoveryMail.AnotherMailInFlight {
            throw JobFailure("another recovery mail to this address is on its way")
        } catch let refusal as Refusal where refusal.kind == .conflict {
            // The buyer's personal-data key was destroyed: no code can be sealed for them, now or later.
            throw JobFailure("no recovery code: \(refusal.message)", permanent: true)
        } catch let error as InconsistentState {
            throw JobFailure(error.message, permanent: true)
        }
        guard case .send(let mail) = outcome else {
            if case .skipped(let skip) = outcome { return .done("skipped: \(skip.explanation)") }
            return .done("skipped")
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
            text: words.text, html: words.html, messageID: "job-\(jobId)@\(domain)", date: run.now)
        let sender = settings.sender
        return .effect(JobEffect(timeout: timeout, perform: { () -> SMTPError? in
            do {
                try deliver(content, smtp: settings.smtp)
                return nil
            } catch let error as SMTPError {
                return error
            } catch {
                return SMTPError(kind: .transport, message: "the message could not be built")
            }
        }, record: { error, recording in
            guard let error else {
                try sender.recordSent(mail, request: request, jobId: jobId, now: recording.now, metadata: metadata,
                                      transaction: recording.transaction)
                return .done("sent")
            }
            try sender.release(request, jobId: jobId, transaction: recording.transaction)
            let reply = error.replyCode.map { " \($0)" } ?? ""
            return .failed(JobFailure("SMTP \(error.kind)\(reply)", permanent: error.isPermanent))
        }))
    }

    /// Encodes and sends the mail (untyped `throws`, so callers can catch `SMTPError` with a plain cast).
    private static func deliver(_ content: MailContent, smtp: SMTPClient) throws {
        try smtp.send(try MailMessage(content))
    }
}
