import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Adds a forward destination to an app (`POST /s2s/v1/apps/{appId}/destinations`, `handoff admin app destination
/// add`): `AppDestinationAdded`, its secret sealed for the app (`DestinationAddition.decide`).
public struct AddDestination: Sendable {
    private let log: EventLog
    private let sealer: AppSealer

    private let addresses: ForwardAddresses

    init(log: EventLog, sealer: AppSealer, addresses: ForwardAddresses) {
        self.addresses = addresses
        self.log = log
        self.sealer = sealer
    }

    /// Adds a destination of `scheme` at `url` (with the checked `secret`, if any) to the app of `scope`; returns
    /// its id. Refuses 404 for an app the caller does not have, 400 for `attribloom` on an Android app or without a
    /// secret, 409 over `DestinationAddition.maxDestinations`.
    public func run(_ scope: AppCommandScope, scheme: DestinationScheme, url: AppForwardURL, secret: String?,
                    fields: AppFieldNames, metadata: EventMetadata) throws -> DestinationID {
        try addresses.check(url, field: fields == .flags ? "--url" : "url")
        let destination = DestinationID(randomBytes: SecureRandom.bytes(16))
        return try log.transact(in: scope.orgScope) { transaction in
            let connection = transaction.connection
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project, on: connection,
                                             forUpdate: true)
            _ = try DestinationAddition.decide(app: loaded?.state, scheme: scheme, hasSecret: secret != nil,
                                               fields: fields).get()
            guard let org = loaded?.org else { throw InconsistentState("a decided app was not loaded") }
            let sealed = try secret.map {
                try sealer.seal($0, field: .destinationSecret, app: scope.app, org: org, on: connection)
            }
            try transaction.append(
                org: org.uuid, stream: AppStreams.app(scope.app), expectedVersion: .any,
                events: [try NewEvent(AppDestinationAdded(appId: scope.app, destinationId: destination,
                                                          scheme: scheme, url: url.text, secret: sealed,
                                                          isDefault: false))],
                metadata: metadata)
            return destination
        }
    }
}
