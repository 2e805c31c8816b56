import Domain
import Foundation
import Postgres

extension SubjectKeys {
    /// Seals `text` under the subject's key, creating the key on first use; nil when the key was destroyed
    /// (a forgotten subject gets no new personal data: store nothing, or a placeholder).
    public func seal(
        _ text: String, field: PersonalDataField, org: UUID, subject: String, on connection: Connection
    ) throws -> SealedValue? {
        guard let key = try keyFor(org: org, subject: subject, on: connection).key else { return nil }
        return PersonalData.seal(text, field: field, org: org, subject: subject, key: key)
    }

    /// Opens a sealed value with the subject's stored key: `.erased` once the key was destroyed, `.invalid` when the
    /// subject has no key at all or the value does not open. Never creates a key.
    public func reveal(
        _ value: SealedValue, field: PersonalDataField, org: UUID, subject: String, on connection: Connection
    ) throws -> Reveal {
        guard let state = try existingKey(org: org, subject: subject, on: connection) else { return .invalid }
        return PersonalData.open(value, field: field, org: org, subject: subject, key: state)
    }
}
