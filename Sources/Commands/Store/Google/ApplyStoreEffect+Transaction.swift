import Domain
import EventStore
import Foundation
import Postgres

extension ApplyStoreEffect {
    /// What `run` does, inside the caller's `transaction`, which must already be in `app`'s org scope: the
    /// `google-play` job's outcome transaction, so that the effect's payment events and the job's end commit
    /// together (a crash before the commit leaves neither; the retry applies the effect then).
    ///
    /// Safe to repeat, like `run`. Answers the buyer `buyer` names in `app`'s org (nil: none the org knows — then no
    /// payment is recorded, but a payment already recorded under the effect's id is still extended, ended or
    /// refunded).
    @discardableResult
    public func run(_ effect: StoreEffect, buyer: StoreIntake.BuyerReference, app: AppLookup.StoreApp,
                    store: NotificationStore, bodyHash: String, notificationEventId: UUID, now: Date,
                    metadata: EventMetadata, in transaction: EventTransaction) throws -> String? {
        let org = PostgresValue.text(app.orgId.description)
        let reads = try StoreReads.run(buyer: buyer, effect: effect, org: org, on: transaction.connection)
        try StoreEffects(org: app.orgId.uuid, projectId: app.projectId.description, store: store, bodyHash: bodyHash,
                         effect: effect, guid: reads.guid, cause: notificationEventId, now: now)
            .apply(org: org, stored: reads.stored, metadata: metadata, transaction: transaction)
        return reads.guid
    }
}
