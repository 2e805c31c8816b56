import Commands
import Domain
import EventStore
import Foundation

/// The forward destinations and store tokens of the apps write model (`AppLookup.forwardTarget`), read in the forward
/// job's claim transaction. A removed destination sends nothing.
public struct AppForwardTargets: ForwardTargets {
    let lookup: AppLookup

    public init(lookup: AppLookup) { self.lookup = lookup }

    public func target(org: UUID, appId: String, destinationId: String, storeTokenHash: String,
                       on transaction: EventTransaction) throws -> ForwardTarget? {
        guard case .success(let app) = AppID.parse(appId),
              case .success(let destination) = DestinationID.parse(destinationId),
              let found = try lookup.forwardTarget(org: OrgID(org), appId: app, destinationId: destination,
                                                   storeTokenHash: storeTokenHash, on: transaction.connection),
              !found.removed
        else { return nil }
        let scheme: ForwardScheme = found.scheme == .attribloom ? .attribloom : .x3
        return ForwardTarget(url: found.url, scheme: scheme, secret: found.secret.map { Array($0.utf8) },
                             signingToken: found.storeToken)
    }
}

/// The targets of a worker without `HANDOFF_MASTER_KEY`: no secret or token opens, so every forward fails (and is
/// retried on the ladder, until an operator sets the key).
public struct NoForwardTargets: ForwardTargets {
    public init() {}

    public func target(org: UUID, appId: String, destinationId: String, storeTokenHash: String,
                       on transaction: EventTransaction) throws -> ForwardTarget? {
        throw JobFailure("no HANDOFF_MASTER_KEY on this worker: app secrets and store tokens cannot be opened")
    }
}
