import Domain
import EventStore
import Foundation
import Postgres

extension SubjectKeys {
    /// A journey key of install `installHash` as `app_installs` holds it (docs/app-identity.md "Journey keys"), in
    /// clear: opened with the install's key when sealed (`AppInstallRecorded` version 2), `.value` as is when not
    /// (version 1); `.erased` once the install's key was destroyed. Never creates a key.
    public func journeyKey(_ stored: String, field: PersonalDataField, org: UUID, installHash: String,
                           on connection: Connection) throws -> Reveal {
        guard let sealed = SealedValue(stored) else { return .value(stored) }
        return try reveal(sealed, field: field, org: org,
                          subject: AppLeadStreams.installSubject(installHash: installHash), on: connection)
    }
}
