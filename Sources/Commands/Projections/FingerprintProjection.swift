import Domain
import EventStore
import Foundation
import Postgres

/// Folds fingerprint events into `fingerprints` (migration `0010_fingerprints.sql`): the live fingerprints that can
/// still match, one row per (org, payment).
///
/// Fingerprints are deleted once they can no longer match: `FingerprintMatched` deletes its row (spent), and every
/// fingerprint event first deletes the org's rows whose `expires_at` (payment + 2 h) is before the event's own
/// time (`recordedAt` / `matchedAt`, from the payload, so replay gives the same result). A later visit of the page
/// replaces the payment's row; a visit after the match records nothing (the recorder appends at the version it read
/// before checking the stream for the match).
///
/// A `FingerprintRecorded` whose `expiresAt` is more than a minute before the database's clock inserts nothing: live,
/// the recorder never appends one that late, and a replay must not bring back rows that the deployment-wide sweep
/// (`FingerprintSweep` in the API, same margin) deleted — they could never match again. Nor does one whose IP
/// reference (version 2, `LookupRefs`) an erasure deleted.
public struct FingerprintProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["fingerprints"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let fingerprints = tables["fingerprints"]
        switch event.eventType {
        case FingerprintRecorded.eventType:
            let recorded = try event.decode(FingerprintRecorded.self)
            try prune(org: org, before: recorded.recordedAt, table: fingerprints, on: connection)
            guard let ipHash = try LookupRefs.resolve(hash: recorded.ipHash, ref: recorded.ipRef, org: event.orgId,
                                                      on: connection) else { return }
            try connection.query("""
                INSERT INTO \(fingerprints) (org_id, payment_id, project_id, guid, platform, screen, timezone,
                    language, ip_hash, paid_at, expires_at, recorded_at)
                SELECT $1::uuid, $2, $3::uuid, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11::timestamptz,
                    $12::timestamptz
                WHERE $11::timestamptz > $12::timestamptz AND $11::timestamptz >= now() - interval '1 minute'
                ON CONFLICT (org_id, payment_id) DO UPDATE SET platform = excluded.platform, screen = excluded.screen,
                    timezone = excluded.timezone, language = excluded.language, ip_hash = excluded.ip_hash,
                    recorded_at = excluded.recorded_at
                """, [org, .text(recorded.paymentId), .text(recorded.projectId), .text(recorded.guid),
                      .optional(recorded.platform), .text(recorded.screen), .optional(recorded.timezone),
                      .optional(recorded.language), .text(ipHash), .text(recorded.paidAt),
                      .text(recorded.expiresAt), .text(recorded.recordedAt)])
        case FingerprintMatched.eventType:
            let matched = try event.decode(FingerprintMatched.self)
            try connection.query("DELETE FROM \(fingerprints) WHERE org_id = $1::uuid AND payment_id = $2",
                                 [org, .text(matched.paymentId)])
            try prune(org: org, before: matched.matchedAt, table: fingerprints, on: connection)
        default:
            return
        }
    }

    /// Deletes the org's fingerprints that expired before `instant` (RFC 3339); one expiring at `instant` can still
    /// match at that instant (the 2 h window includes its edge).
    private func prune(org: PostgresValue, before instant: String, table: String, on connection: Connection) throws {
        try connection.query("DELETE FROM \(table) WHERE org_id = $1::uuid AND expires_at < $2::timestamptz",
                             [org, .text(instant)])
    }
}
