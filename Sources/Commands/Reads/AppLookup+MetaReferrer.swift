import Domain
import EventStore
import Foundation
import Postgres

extension AppLookup {
    /// The Meta Install Referrer decryption key of app `app` in `org`, opened (64 lowercase hex digits), or nil when
    /// none is set; for `POST /v1/m/install`, which learned the org from the publishable key.
    public func metaInstallReferrerKey(app: AppID, org: OrgID) throws -> String? {
        try pool.transaction(opening: OrgScope.org(org.uuid).statement) { connection in
            guard let state = try Self.state(app, org: org, project: nil, on: connection, forUpdate: false)?.state,
                  let sealed = state.facts.secrets[.metaInstallReferrerKey]
            else { return nil }
            return try Opener(keys: subjectKeys, org: org, app: app, on: connection)
                .open(sealed, .metaInstallReferrerKey)
        }
    }
}
