import Domain
import Foundation
import Postgres

extension AppLookup {
    /// The app `appId` of `org` as store intake sees it — its secrets opened, the service-account key among them —
    /// read on `connection`, which must already be in `org`'s scope (the `google-play` job's claim transaction).
    ///
    /// Nil when `org` has no such app (another organization's app id finds nothing: the read is filtered by `org` and
    /// row-level security keeps it there). `storeTokenHash` and `destinations` are the app's current ones. Throws
    /// `InconsistentState` when a secret does not open (a wrong `HANDOFF_MASTER_KEY`): never read as unset.
    public func storeApp(org: OrgID, appId: AppID, on connection: Connection) throws -> StoreApp? {
        guard let state = try Self.state(appId, org: org, project: nil, on: connection, forUpdate: false)?.state,
              case .success(let project) = ProjectID.parse(state.facts.projectId)
        else { return nil }
        let opener = try Opener(keys: subjectKeys, org: org, app: appId, on: connection)
        let secrets = state.facts.secrets
        func open(_ kind: AppSecretKind) throws -> String? { try secrets[kind].map { try opener.open($0, kind) } }
        return StoreApp(
            orgId: org, appId: appId, projectId: project, platform: state.platform, bundleId: state.facts.bundleId,
            appAppleId: state.facts.appAppleId, storeTokenHash: state.storeTokenHash,
            revenuecatSecret: try open(.revenuecatSecret), googlePushAudience: try open(.googlePushAudience),
            googlePushServiceAccount: try open(.googlePushServiceAccount),
            googleServiceAccountKey: try open(.googleServiceAccountKey),
            destinations: state.destinations.map(\.id))
    }
}
