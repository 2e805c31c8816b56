import Domain
import EventStore
import Foundation
import Postgres

/// Replaces an app's store token (`POST /s2s/v1/apps/{appId}/store-token`, `handoff admin app rotate-token`):
/// `AppStoreTokenRotated`. The old token's URLs answer 404 from the commit on; its sealed text is kept so forwards
/// queued before still sign with it.
public struct RotateStoreToken: Sendable {
    private let log: EventLog
    private let sealer: AppSealer

    init(log: EventLog, sealer: AppSealer) {
        self.log = log
        self.sealer = sealer
    }

    /// Rotates the token of the app of `scope`; returns the app and its new token (shown once). Refuses 404 for an
    /// app the caller does not have.
    public func run(_ scope: AppCommandScope, metadata: EventMetadata) throws -> CreateApp.Created {
        try log.transact(in: scope.orgScope) { transaction in
            let connection = transaction.connection
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project, on: connection,
                                             forUpdate: true)
            let retiring = try StoreTokenRotation.decide(current: loaded?.state).get()
            guard var state = loaded?.state, let org = loaded?.org else {
                throw InconsistentState("a decided app was not loaded")
            }
            let token = try sealer.newStoreToken(app: scope.app, org: org, on: connection)
            try transaction.append(
                org: org.uuid, stream: AppStreams.app(scope.app), expectedVersion: .any,
                events: [try NewEvent(AppStoreTokenRotated(appId: scope.app, storeTokenHash: token.hash,
                                                           storeToken: token.sealed, retiredTokenHash: retiring))],
                metadata: metadata)
            state.storeTokenHash = token.hash
            return CreateApp.Created(app: AppLookup.App(state: state, orgId: org), storeToken: token.token)
        }
    }
}
