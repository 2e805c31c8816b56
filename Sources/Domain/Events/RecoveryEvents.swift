import Foundation

/// The stream names and constants of e-mail recovery (issue 6, docs/jobs.md).
public enum RecoveryStreams {
    /// One request's stream: `EmailRecoveryRequested`, then at most one `RecoveryMailSent`.
    public static func request(_ requestId: UUID) -> String { "recovery-\(requestId.lowercasedText)" }

    /// The log that takes requests naming a project that does not exist: the all-zero org id, so the endpoint does
    /// the same work (seal, append) whether or not the project exists, and answers in the same time.
    public static let unknownProjectOrg = UUID(canonicalText: "00000000-0000-0000-0000-000000000000")!

    /// The personal-data subject of a recovery address: `email:<lookup reference>` (version 1: `email:<lookup
    /// hash>`), one data key per address and org, so destroying that subject's key erases every request for the
    /// address. 70 characters: no guid (at most 64) can equal it.
    public static func emailSubject(emailRef: String) -> String { "email:\(emailRef)" }
}

/// Someone asked for a recovery mail (`POST /public/handoff/email-recovery/request`). Nothing is decided yet: the
/// worker later looks for a buyer of the org with a payment and this address.
///
/// `email` is sealed for the subject `email:<emailRef>` (field `email`); `emailRef` is the address's lookup
/// reference (`LookupRefVersion`). Version 1 carried `emailHash` (`LookupHash.email`) instead, and sealed for
/// `email:<emailHash>`. `projectId` is the project the caller named (in the unknown-project log, a project that does
/// not exist). `language` is `en` or `ru`, from the request's `Accept-Language`.
public struct EmailRecoveryRequested: EventPayload, Equatable {
    public static let eventType = "EmailRecoveryRequested"
    public static let schemaVersion = LookupRefVersion.current
    public var requestId: String
    public var projectId: String
    public var email: SealedValue
    /// Version 1 only.
    public var emailHash: String?
    public var emailRef: String?
    public var language: String

    public init(requestId: String, projectId: String, email: SealedValue, emailRef: String, language: String) {
        self.requestId = requestId
        self.projectId = projectId
        self.email = email
        self.emailRef = emailRef
        self.language = language
    }

    /// The personal-data subject `email` is sealed for: `email:<emailRef>`, or `email:<emailHash>` in version 1.
    public var subject: String? {
        (emailRef ?? emailHash).map { RecoveryStreams.emailSubject(emailRef: $0) }
    }

    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        try LookupRefVersion.upcast(data, from: schemaVersion, eventType: eventType)
    }
}

/// A recovery mail was handed to the SMTP server for a request (stream `recovery-<requestId>`): it carried a fresh
/// handoff code of `guid`'s payment `paymentId` (the code itself only as its lookup hash `codeHash`).
public struct RecoveryMailSent: EventPayload, Equatable {
    public static let eventType = "RecoveryMailSent"
    public static let schemaVersion = 1
    public var requestId: String
    public var guid: String
    public var paymentId: String
    public var codeHash: String
    public var language: String
    /// The job that sent it (`jobs.job_id`); also the mail's `Message-ID`.
    public var jobId: Int

    public init(requestId: String, guid: String, paymentId: String, codeHash: String, language: String, jobId: Int) {
        self.requestId = requestId
        self.guid = guid
        self.paymentId = paymentId
        self.codeHash = codeHash
        self.language = language
        self.jobId = jobId
    }
}
