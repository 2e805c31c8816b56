import Domain
import EventStore
import Foundation
import Postgres

/// Folds `StoreNotificationReceived` into `store_notifications` (migration `0018_store_notifications.sql`): the
/// dedupe key of store intake. A second event for one (app, store, notification id) fails its insert here, which is
/// what lets concurrent deliveries of one notification record it once.
public struct StoreProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["store_notifications"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        guard event.eventType == StoreNotificationReceived.eventType else { return }
        let received = try event.decode(StoreNotificationReceived.self)
        connection.queueWrite("""
            INSERT INTO \(tables["store_notifications"]) (org_id, app_id, store, notification_id, event_id,
                notification_type, verified, guid, received_at)
            VALUES ($1::uuid, $2::uuid, $3, $4, $5::uuid, $6, $7::boolean, $8, $9::timestamptz)
            """, [.text(event.orgId.lowercasedText), .text(received.appId), .text(received.store),
                  .text(received.notificationId), .text(event.eventId.lowercasedText),
                  .text(received.notificationType), .text(received.verified ? "true" : "false"),
                  .optional(received.guid), .text(event.recordedAt)])
    }
}
