import Domain
import EventStore
import Foundation
import Postgres

/// Applies the effect of a notification recorded earlier, once the facts it lacked are known (a Google notification
/// names a purchase token only; the Play Developer API tells the buyer, the order and the expiry).
///
/// Safe to repeat: the decider records nothing that is already so (a known payment is not recorded again, an
/// expiry is not moved to where it is, a refund is not repeated).
public struct ApplyStoreEffect: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Applies `effect` for the buyer `buyer` names, caused by the `StoreNotificationReceived` `notificationEventId`
    /// of `app`, in `app`'s org at `now`; answers the buyer found (nil: none the org knows).
    @discardableResult
    public func run(_ effect: StoreEffect, buyer: StoreIntake.BuyerReference, app: AppLookup.StoreApp,
                    store: NotificationStore, bodyHash: String, notificationEventId: UUID, now: Date,
                    metadata: EventMetadata) throws -> String? {
        try log.transact(in: .org(app.orgId.uuid), maxAttempts: 8) { transaction in
            let org = PostgresValue.text(app.orgId.description)
            let reads = try StoreReads.run(buyer: buyer, effect: effect, org: org, on: transaction.connection)
            try StoreEffects(org: app.orgId.uuid, projectId: app.projectId.description, store: store,
                             bodyHash: bodyHash, effect: effect, guid: reads.guid, cause: notificationEventId,
                             now: now)
                .apply(org: org, stored: reads.stored, metadata: metadata, transaction: transaction)
            return reads.guid
        }
    }
}
