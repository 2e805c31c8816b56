import Commands
import Domain
import EventStore
import Foundation
import Postgres
import TestSupport

extension IngestFixture {
    /// A journey key as `app_installs` (or an event) holds it, opened with the install's key as the service opens it:
    /// the text, `erased`, `invalid`, or `clear:<text>` for a value that is not sealed at all (so a test expecting the
    /// plain text fails when a key was stored in clear).
    func opened(_ stored: String?, _ field: PersonalDataField, org: String, installHash: String) throws -> String? {
        guard let stored else { return nil }
        guard let sealed = SealedValue(stored) else { return "clear:" + stored }
        guard let orgId = UUID(uuidString: org) else { return "invalid" }
        let keys = SubjectKeys(masterKeys: TestIdentity.secrets().masterKeys)
        switch try keys.reveal(sealed, field: field, org: orgId,
                               subject: AppLeadStreams.installSubject(installHash: installHash),
                               on: try apps.tenants.ownerConnection()) {
        case .value(let text): return text
        case .erased: return "erased"
        case .invalid: return "invalid"
        }
    }
}
