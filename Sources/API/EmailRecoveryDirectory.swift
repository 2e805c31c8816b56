import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records e-mail recovery requests (`EmailRecoveryRequested`); the `recovery-mail` worker decides what to do.
///
/// A request naming a known project goes to its organization's log; one naming an unknown project goes to the
/// unknown-project log (`RecoveryStreams.unknownProjectOrg`), with exactly the same work — seal the address under the
/// subject `email:<hash>`, append one event — so the answer takes the same time either way (docs/jobs.md).
public struct EmailRecoveryDirectory: Sendable {
    public let store: EventStore
    private let subjectKeys: SubjectKeys
    private let lookupPepper: [UInt8]

    public init(store: EventStore, secrets: IdentitySecrets) {
        self.store = store
        self.subjectKeys = SubjectKeys(masterKey: secrets.masterKey)
        self.lookupPepper = secrets.lookupPepper
    }

    /// Appends the request to `org`'s log (nil: the unknown-project log); returns the request id.
    @discardableResult
    public func request(org: OrgID?, project: ProjectID, email: EmailAddress, language: String,
                        metadata: EventMetadata) throws -> UUID {
        let orgId = org?.uuid ?? RecoveryStreams.unknownProjectOrg
        let emailHash = LookupHash.email(email.text, pepper: lookupPepper)
        let subject = RecoveryStreams.emailSubject(emailHash: emailHash)
        let requestId = UUID()
        try store.transact { transaction in
            // An address erased on request gets no new personal data, but the same work — one key read, one sealed
            // value, one append, one commit — so the answer's timing does not tell that it was erased: a placeholder
            // sealed under a throwaway key, which reads back as erased (the subject's key is destroyed).
            let sealed = try subjectKeys.seal(email.text, field: .email, org: orgId, subject: subject,
                                              on: transaction.connection)
                ?? Self.erasedPlaceholder(org: orgId, subject: subject)
            try transaction.append(
                org: orgId, stream: RecoveryStreams.request(requestId), expectedVersion: .noStream,
                events: [try NewEvent(EmailRecoveryRequested(
                    requestId: requestId.uuidString.lowercased(), projectId: project.description, email: sealed,
                    emailHash: emailHash, language: language))],
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
