import Domain
import EventStore
import Foundation
import Postgres

/// Folds the tenancy events into `organizations`, `projects` and `secret_keys` (migration `0005_tenants.sql`).
///
/// Times come from the event's `recorded_at`, so a replay writes the same rows as the live appends did.
/// Other event types are ignored.
public struct TenantProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["organizations", "projects", "secret_keys"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let at = PostgresValue.text(event.recordedAt)
        switch event.eventType {
        case OrganizationCreated.eventType:
            let created = try event.decode(OrganizationCreated.self)
            try connection.query("""
                INSERT INTO \(tables["organizations"]) (org_id, name, created_at)
                VALUES ($1::uuid, $2, $3::timestamptz)
                """, [org, .text(created.name), at])
        case ProjectCreated.eventType:
            let created = try event.decode(ProjectCreated.self).facts
            try connection.query("""
                INSERT INTO \(tables["projects"]) (project_id, org_id, name, paywall_url, return_scheme,
                    android_package, ios_bundle_id, fingerprint, tracker, tracker_link, email_verification,
                    landing_url, created_at, updated_at)
                VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8::boolean, $9, $10, $11, $12, $13::timestamptz,
                        $13::timestamptz)
                """, [.text(created.projectId), org] + Self.values(created.settings) + [at])
        case ProjectSettingsChanged.eventType:
            let changed = try event.decode(ProjectSettingsChanged.self).facts
            try connection.query("""
                UPDATE \(tables["projects"]) SET name = $3, paywall_url = $4, return_scheme = $5,
                    android_package = $6, ios_bundle_id = $7, fingerprint = $8::boolean, tracker = $9,
                    tracker_link = $10, email_verification = $11, landing_url = $12, updated_at = $13::timestamptz
                WHERE project_id = $1::uuid AND org_id = $2::uuid
                """, [.text(changed.projectId), org] + Self.values(changed.settings) + [at])
        case SecretKeyCreated.eventType:
            let created = try event.decode(SecretKeyCreated.self).facts
            try connection.query("""
                INSERT INTO \(tables["secret_keys"]) (key_hash, prefix, project_id, org_id, created_at)
                VALUES (decode($1, 'hex'), $2, $3::uuid, $4::uuid, $5::timestamptz)
                """, [.text(created.keyHash), .text(created.prefix), .text(created.projectId), org, at])
        case SecretKeyRevoked.eventType:
            let revoked = try event.decode(SecretKeyRevoked.self).facts
            try connection.query("""
                UPDATE \(tables["secret_keys"]) SET revoked_at = $3::timestamptz
                WHERE key_hash = decode($1, 'hex') AND org_id = $2::uuid AND revoked_at IS NULL
                """, [.text(revoked.keyHash), org, at])
        default:
            return
        }
    }

    /// `$3 … $12` of the project statements.
    private static func values(_ settings: ProjectSettings) -> [PostgresValue] {
        [.text(settings.name), .optional(settings.paywallUrl), .optional(settings.returnScheme),
         .optional(settings.androidPackage), .optional(settings.iosBundleId), .bool(settings.fingerprint),
         .text(settings.tracker.rawValue), .optional(settings.trackerLink), .text(settings.emailVerification.rawValue),
         .optional(settings.landingUrl)]
    }
}
