import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Seals an app's secrets and store tokens for the app (subject `app:<appId>`), inside a command's transaction; the
/// key is created on first use.
struct AppSealer: Sendable {
    let subjectKeys: SubjectKeys

    /// `text` sealed for `app` of `org` under `field`; refuses (409) if the app's key was ever destroyed.
    func seal(_ text: String, field: PersonalDataField, app: AppID, org: OrgID, on connection: Connection) throws
        -> SealedValue
    {
        guard let sealed = try subjectKeys.seal(text, field: field, org: org.uuid, subject: app.secretSubject,
                                                on: connection) else {
            throw Refusal(kind: .conflict, code: nil, field: nil, message: "the app's secrets were erased")
        }
        return sealed
    }

    /// Every secret of `plain` sealed under its own field.
    func seal(_ plain: [AppSecretKind: String], app: AppID, org: OrgID, on connection: Connection) throws
        -> [AppSecretKind: SealedValue]
    {
        var sealed: [AppSecretKind: SealedValue] = [:]
        for (kind, text) in plain {
            sealed[kind] = try seal(text, field: kind.personalDataField, app: app, org: org, on: connection)
        }
        return sealed
    }

    /// A fresh store token, its hash and its sealed text.
    func newStoreToken(app: AppID, org: OrgID, on connection: Connection) throws
        -> (token: StoreToken, hash: String, sealed: SealedValue)
    {
        let token = StoreToken(randomBytes: SecureRandom.bytes(StoreToken.randomByteCount))
        let sealed = try seal(token.text, field: .storeToken, app: app, org: org, on: connection)
        return (token, AppLookup.tokenHash(token), sealed)
    }
}
