import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Gives an app a new publishable key (`handoff admin app rotate-publishable-key`): `AppPublishableKeyIssued`. The
/// previous key answers 403 `key` on `/v1/m/*` from the commit on; an app created before keys existed gets its
/// first one this way.
public struct RotatePublishableKey: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Rotates the key of the app of `scope`; answers the app as it now is. Refuses 404 for an app the caller does
    /// not have.
    public func run(_ scope: AppCommandScope, metadata: EventMetadata) throws -> AppLookup.App {
        let key = PublishableKey(randomBytes: SecureRandom.bytes(PublishableKey.randomByteCount))
        return try log.transact(in: scope.orgScope) { transaction in
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project,
                                             on: transaction.connection, forUpdate: true)
            guard var state = loaded?.state, let org = loaded?.org,
                  case .success(let project) = ProjectID.parse(state.facts.projectId)
            else { throw Refusal.notFound("no app has this id", field: "appId") }
            let recorded = try transaction.append(
                org: org.uuid, stream: AppStreams.app(scope.app), expectedVersion: .any,
                events: [try NewEvent(AppPublishableKeyIssued(appId: scope.app, projectId: project, key: key))],
                metadata: metadata)
            state.publishableKey = key.text
            if let last = recorded.last { state.ingest?.rev = Int(last.orgSeq) }
            return AppLookup.App(state: state, orgId: org)
        }
    }
}
