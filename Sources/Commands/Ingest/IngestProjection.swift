import Domain
import EventStore
import Foundation
import Postgres

/// Folds the events that change an app's AppConfig into `app_ingest_configs` (migration `0028_app_ingest_keys.sql`):
/// one row per app, with its live publishable key and `rev`, the `org_seq` of the latest such event.
///
/// An app created before publishable keys existed gets its row (without a key) from its `AppCreated`; its first
/// rotation gives it a key. A project's settings change raises the revision of all its apps.
public struct IngestProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["app_ingest_configs"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let rev = PostgresValue.text(String(event.orgSeq))
        let at = PostgresValue.text(event.recordedAt)
        switch event.eventType {
        case AppCreated.eventType:
            let facts = try event.decode(AppCreated.self).facts
            try upsert(app: facts.appId, project: facts.projectId, key: nil, org: org, rev: rev, at: at,
                       tables: tables, on: connection)
        case AppPublishableKeyIssued.eventType:
            let issued = try event.decode(AppPublishableKeyIssued.self)
            try upsert(app: issued.appId, project: issued.projectId, key: issued.publishableKey, org: org, rev: rev,
                       at: at, tables: tables, on: connection)
        case AppIngestSettingsChanged.eventType:
            let changed = try event.decode(AppIngestSettingsChanged.self)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let settings = String(decoding: try encoder.encode(changed.settings), as: UTF8.self)
            try upsert(app: changed.appId, project: changed.projectId, key: nil, org: org, rev: rev, at: at,
                       tables: tables, on: connection)
            try connection.query("""
                UPDATE \(tables["app_ingest_configs"]) SET settings = $3::jsonb
                WHERE app_id = $1::uuid AND org_id = $2::uuid
                """, [.text(changed.appId), org, .text(settings)])
        case AppUpdated.eventType:
            let facts = try event.decode(AppUpdated.self).facts
            try upsert(app: facts.appId, project: facts.projectId, key: nil, org: org, rev: rev, at: at,
                       tables: tables, on: connection)
        case ProjectSettingsChanged.eventType:
            let project = try event.decode(ProjectSettingsChanged.self).facts.projectId
            try connection.query("""
                UPDATE \(tables["app_ingest_configs"]) SET rev = $3::bigint, updated_at = $4::timestamptz
                WHERE org_id = $1::uuid AND project_id = $2::uuid
                """, [org, .text(project), rev, at])
        default:
            return
        }
    }

    /// Inserts the app's row or raises its revision; a `key` replaces the live one, nil keeps it.
    private func upsert(app: String, project: String, key: String?, org: PostgresValue, rev: PostgresValue,
                        at: PostgresValue, tables: ProjectionTables, on connection: Connection) throws {
        let table = tables["app_ingest_configs"]
        try connection.query("""
            INSERT INTO \(table) AS c (app_id, org_id, project_id, publishable_key, rev, updated_at)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::bigint, $6::timestamptz)
            ON CONFLICT (app_id) DO UPDATE SET publishable_key = coalesce(EXCLUDED.publishable_key, c.publishable_key),
                rev = EXCLUDED.rev, updated_at = EXCLUDED.updated_at
            """, [.text(app), org, .text(project), .optional(key), rev, at])
    }
}
