import Domain
import EventStore
import Foundation
import Postgres

/// Folds `AuditorURLSet` into `org_auditors` (migration 0023): one row per organization that ever named an auditor
/// URL, `url` NULL once cleared. Times come from the event's `recorded_at`, so a replay writes the same rows.
public struct AuditorProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["org_auditors"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        guard event.eventType == AuditorURLSet.eventType else { return }
        let set = try event.decode(AuditorURLSet.self)
        let table = tables["org_auditors"]
        try connection.queryPrepared("""
            INSERT INTO \(table) (org_id, url, updated_at) VALUES ($1::uuid, $2, $3::timestamptz)
            ON CONFLICT (org_id) DO UPDATE SET url = EXCLUDED.url, updated_at = EXCLUDED.updated_at
            """, [.text(event.orgId.lowercasedText), .optional(set.url), .text(event.recordedAt)])
    }
}
