import Domain
import EventStore
import Foundation
import Postgres

/// Folds forward attempts (`NotificationForwarded`, `ForwardFailed`) into `store_deliveries` (migration 0019): one
/// row per attempt, keyed by the event, ordered by the event's `org_seq`. Rows are only inserted: an attempt is a
/// fact. What `DeliveryLog` and `handoff jobs show` read.
public struct DeliveryProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["store_deliveries"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let facts: ForwardAttemptFacts
        let delivered: Bool
        switch event.eventType {
        case NotificationForwarded.eventType:
            facts = try event.decode(NotificationForwarded.self).facts
            delivered = true
        case ForwardFailed.eventType:
            facts = try event.decode(ForwardFailed.self).facts
            delivered = false
        default:
            return
        }
        try connection.queryPrepared("""
            INSERT INTO \(tables["store_deliveries"]) (org_id, event_id, org_seq, app_id, notification_event_id,
                destination_id, job_id, attempt, delivered, url_host, status, duration_ms, answer, error, attempted_at)
            VALUES ($1::uuid, $2::uuid, $3::bigint, $4, $5::uuid, $6, $7::bigint, $8::integer, $9::boolean, $10,
                    $11::integer, $12::integer, $13, $14, $15::timestamptz)
            ON CONFLICT (org_id, event_id) DO NOTHING
            """, [.text(event.orgId.lowercasedText), .text(event.eventId.lowercasedText),
                  .int(event.orgSeq), .text(facts.appId), .text(facts.notificationEventId), .text(facts.destinationId),
                  .int(facts.jobId), .int(facts.attempt), .bool(delivered), .text(facts.urlHost),
                  .optional(facts.status), .int(facts.durationMs), .text(facts.answer),
                  .optional(facts.error), .text(event.recordedAt)])
    }
}
