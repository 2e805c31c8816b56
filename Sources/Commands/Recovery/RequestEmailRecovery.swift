import Crypto
import Domain
import EventStore
import Foundation

/// Records an e-mail recovery request (`POST /public/handoff/email-recovery/request`): `EmailRecoveryRequested`;
/// the `recovery-mail` worker (`SendRecoveryMail`) decides later whether a mail goes out.
///
/// A request naming a known project goes to its organization's log; one naming an unknown project goes to the
/// unknown-project log (`RecoveryStreams.unknownProjectOrg`), with exactly the same work — find or make the address's
/// lookup reference, seal the address under the subject `email:<ref>`, append one event — so the answer takes the
/// same time either way (docs/jobs.md; `EmailRecoveryRequest.decide`).
public struct RequestEmailRecovery: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// Appends the request for `project` (whose org is `org`, nil when the project is unknown); returns its id.
    @discardableResult
    public func run(org: OrgID?, project: ProjectID, email: EmailAddress, language: String,
                    metadata: EventMetadata) throws -> UUID {
        let emailHash = context.emailHash(email)
        let requestId = SecureRandom.uuid()
        let orgId: UUID
        switch EmailRecoveryRequest.decide(projectOrg: org, addressErased: false).log {
        case .organization(let known): orgId = known.uuid
        case .unknownProject: orgId = RecoveryStreams.unknownProjectOrg
        }
        try context.log.transact(in: .org(orgId)) { transaction in
            let emailRef = try LookupRefs.ref(.email, hash: emailHash, org: orgId, on: transaction.connection)
            let subject = RecoveryStreams.emailSubject(emailRef: emailRef)
            // An address erased on request gets no new personal data, but the same work — one key read, one sealed
            // value, one append, one commit — so the answer's timing does not tell that it was erased: a placeholder
            // sealed under a throwaway key, which reads back as erased (the subject's key is destroyed).
            let opened = try context.subjectKeys.seal(email.text, field: .email, org: orgId, subject: subject,
                                                      on: transaction.connection)
            let decision = EmailRecoveryRequest.decide(projectOrg: org, addressErased: opened == nil)
            guard let sealed = decision.sealPlaceholder ? Self.erasedPlaceholder(org: orgId, subject: subject) : opened
            else { throw InconsistentState("an address sealed to nothing") }
            try transaction.append(
                org: orgId, stream: RecoveryStreams.request(requestId), expectedVersion: .noStream,
                events: [try NewEvent(EmailRecoveryRequested(
                    requestId: requestId.lowercasedText, projectId: project.description, email: sealed,
                    emailRef: emailRef, language: language))],
                metadata: metadata)
        }
        return requestId
    }

    /// An empty text sealed under a random key nobody keeps: it carries nothing and never opens.
    static func erasedPlaceholder(org: UUID, subject: String) -> SealedValue {
        PersonalData.seal("", field: .email, org: org, subject: subject,
                          key: SubjectKey(bytes: SecureRandom.bytes(32))!)
    }
}
