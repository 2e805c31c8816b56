import Domain
import EventStore
import Foundation
import Postgres

/// Removes a forward destination of an app (`DELETE /s2s/v1/apps/{appId}/destinations/{destinationId}`, `handoff
/// admin app destination remove`): `AppDestinationRemoved` (`DestinationRemoval.decide`).
public struct RemoveDestination: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Removes `destination` from the app of `scope`. Refuses 404 for an app the caller does not have, or a
    /// destination the app does not have live (a second removal is a 404).
    public func run(_ scope: AppCommandScope, destination: DestinationID, metadata: EventMetadata) throws {
        try log.transact(in: scope.orgScope) { transaction in
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project,
                                             on: transaction.connection, forUpdate: true)
            _ = try DestinationRemoval.decide(app: loaded?.state, destination: destination).get()
            guard let org = loaded?.org else { throw InconsistentState("a decided app was not loaded") }
            try transaction.append(
                org: org.uuid, stream: AppStreams.app(scope.app), expectedVersion: .any,
                events: [try NewEvent(AppDestinationRemoved(appId: scope.app, destinationId: destination))],
                metadata: metadata)
        }
    }
}
