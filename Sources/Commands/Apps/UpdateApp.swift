import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Changes an app (`PATCH /s2s/v1/apps/{appId}`, `handoff admin app update`): `AppUpdated` when a setting or secret
/// changed, and `AppDestinationRemoved`/`AppDestinationAdded` when the forward URL did (`AppUpdate.decide`); nothing
/// when nothing changed.
public struct UpdateApp: Sendable {
    private let log: EventLog
    private let sealer: AppSealer

    private let addresses: ForwardAddresses

    init(log: EventLog, sealer: AppSealer, addresses: ForwardAddresses) {
        self.addresses = addresses
        self.log = log
        self.sealer = sealer
    }

    /// Applies `change` to the app of `scope`; returns the app as it now is. Refuses 404 for an app the caller does
    /// not have, 400 naming the field for a bundle id outside the app's platform's rule.
    public func run(_ scope: AppCommandScope, change: AppChange, metadata: EventMetadata) throws -> AppLookup.App {
        if case .set(let url) = change.forwardUrl { try addresses.check(url, field: change.fields.forwardUrl) }
        let newDestination = DestinationID(randomBytes: SecureRandom.bytes(16))
        return try log.transact(in: scope.orgScope) { transaction in
            let connection = transaction.connection
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project, on: connection,
                                             forUpdate: true)
            var sealed: [AppSecretKind: SealedValue] = [:]
            if let loaded {
                for (kind, secret) in change.secrets {
                    guard case .set(let text) = secret else { continue }
                    sealed[kind] = try sealer.seal(text, field: kind.personalDataField, app: scope.app,
                                                   org: loaded.org, on: connection)
                }
            }
            let decision = try AppUpdate.decide(current: loaded?.state, change: change, sealed: sealed,
                                                newDestination: newDestination).get()
            guard var state = loaded?.state, let org = loaded?.org else {
                throw InconsistentState("a decided app was not loaded")
            }
            var events: [NewEvent] = []
            if decision.settingsChanged { events.append(try NewEvent(AppUpdated(decision.facts))) }
            if let removed = decision.removed {
                events.append(try NewEvent(AppDestinationRemoved(appId: scope.app, destinationId: removed)))
                state.destinations.removeAll { $0.id == removed }
            }
            if let added = decision.added {
                events.append(try NewEvent(AppDestinationAdded(appId: scope.app, destinationId: added.id,
                                                               scheme: added.scheme, url: added.url, secret: nil,
                                                               isDefault: true)))
                state.destinations.append(added)
            }
            if !events.isEmpty {
                let recorded = try transaction.append(org: org.uuid, stream: AppStreams.app(scope.app),
                                                      expectedVersion: .any, events: events, metadata: metadata)
                // `AppUpdated` (the first event) raises the AppConfig revision; a destination does not.
                if decision.settingsChanged, let first = recorded.first { state.ingest?.rev = Int(first.orgSeq) }
            }
            state.facts = decision.facts
            return AppLookup.App(state: state, orgId: org)
        }
    }
}
