import Domain
import EventStore
import Foundation
import Postgres

/// Folds surface events into `surfaces` (migration `0021_surfaces.sql`).
///
/// Secrets are written as the events carry them, sealed (`pd1.…`). A rotation moves the current secret to
/// `previous_sealed_secret` with the event's `previousValidUntil`, dropping any secret an earlier rotation kept. Times
/// come from the event (`recorded_at`, `previousValidUntil`), so a replay writes the same rows as the live appends.
public struct SurfaceProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["surfaces"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let at = PostgresValue.text(event.recordedAt)
        switch event.eventType {
        case SurfaceCreated.eventType:
            let created = try event.decode(SurfaceCreated.self)
            try connection.query("""
                INSERT INTO \(tables["surfaces"]) (surface_id, org_id, app_id, sealed_secret, created_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::timestamptz)
                """, [.text(created.surfaceId), org, .text(created.appId), .text(created.secret.text), at])
        case SurfaceSecretRotated.eventType:
            let rotated = try event.decode(SurfaceSecretRotated.self)
            // The right-hand sides read the row as it was: the current secret becomes the previous one.
            try connection.query("""
                UPDATE \(tables["surfaces"]) SET previous_sealed_secret = sealed_secret, sealed_secret = $3,
                    previous_valid_until = $4::timestamptz, rotated_at = $5::timestamptz
                WHERE surface_id = $1::uuid AND org_id = $2::uuid
                """, [.text(rotated.surfaceId), org, .text(rotated.secret.text), .text(rotated.previousValidUntil),
                      at])
        default:
            return
        }
    }
}
