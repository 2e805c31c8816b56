import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Records a store notification once and applies its effect (docs/store-notifications.md).
///
/// In one transaction of the app's org: a notification already recorded under its (app, store, id) answers
/// `.duplicate` and changes nothing; otherwise `StoreNotificationReceived` goes to the app's store stream and, when
/// verified, the effect's payment events to the payment's stream (`StoreEntitlement.decide`). Concurrent deliveries
/// of one notification collide on `store_notifications`' key; `EventLog.transact` runs the losers again and they
/// find the winner's row.
public struct ReceiveStoreNotification: Sendable {
    /// What became of a notification.
    public enum Outcome: Sendable, Equatable {
        /// Recorded now, as the event with this id.
        case recorded(eventId: UUID)
        /// Recorded before: nothing changed.
        case duplicate
    }

    private let log: EventLog
    private let ledger = CommissionLedger()

    public init(log: EventLog) { self.log = log }

    /// Records `intake` at `now`.
    public func run(_ intake: StoreIntake, now: Date, metadata: EventMetadata) throws -> Outcome {
        try log.transact(in: .org(intake.org), maxAttempts: 25) { transaction in
            let org = PostgresValue.text(intake.org.lowercasedText)
            // The dedupe key, the buyer and the payment the effect is about: one round trip.
            let reads = try StoreReads.run(
                leading: [Statement("""
                    SELECT 1 FROM store_notifications
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND store = $3 AND notification_id = $4
                    """, [org, .text(intake.appId.lowercasedText), .text(intake.store.rawValue),
                          .text(intake.notificationId)], prepared: true)],
                buyer: intake.buyer, effect: intake.verified ? intake.effect : nil, org: org,
                on: transaction.connection)
            if !reads.leading[0].rows.isEmpty { return .duplicate }
            let guid = reads.guid
            let received = StoreNotificationReceived(
                appId: intake.appId.lowercasedText, projectId: intake.projectId,
                store: intake.store.rawValue, notificationId: intake.notificationId,
                notificationType: intake.notificationType, subtype: intake.subtype, environment: intake.environment,
                verified: intake.verified, storeTokenHash: intake.storeTokenHash,
                body: Data(intake.body).base64EncodedString(), destinations: intake.destinations, guid: guid)
            let event = try NewEvent(received)
            try transaction.append(org: intake.org, stream: StoreStreams.notifications(appId: intake.appId),
                                   expectedVersion: .any, events: [event], metadata: metadata)
            if intake.verified {
                let effects = StoreEffects(org: intake.org, projectId: intake.projectId, store: intake.store,
                                           bodyHash: Hex.encode(SHA256.hash(intake.body)), effect: intake.effect,
                                           guid: guid, cause: event.eventId, now: now)
                try effects.apply(org: org, stored: reads.stored, metadata: metadata, transaction: transaction)
                if let sale = intake.sale {
                    try ledger.apply(sale, source: .init(projectId: intake.projectId,
                                                         appId: intake.appId.lowercasedText,
                                                         notificationType: intake.notificationType,
                                                         notificationEventId: event.eventId),
                                     org: intake.org, now: now, metadata: metadata, transaction: transaction)
                }
            }
            return .recorded(eventId: event.eventId)
        }
    }
}
