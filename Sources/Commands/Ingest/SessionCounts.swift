import Domain
import EventStore
import Foundation
import Postgres

/// Reads the ingest tables (migration 0029) for `GET /s2s/v1/apps/{appId}/sessions`: per UTC day, the sessions seen,
/// the installs behind them, screen views and events, under the org's row-level-security scope. Days come from the
/// rows' partition key, so a read touches only the partitions of its range.
public struct SessionCounts: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// One day's counts: a session is a row of `ingest_sessions`, so a `sid` sent again after the app's session
    /// timeout without activity counts twice (its parts, migration 0044). A session active on both sides of midnight
    /// (UTC) counts on both days.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var day: String
        public var sessions: Int
        /// Distinct installs (keyed hashes) with a session that day.
        public var installs: Int
        public var screens: Int
        public var events: Int
    }

    /// The UTC days `from…to` (inclusive, `YYYY-MM-DD`) that have sessions, screen views or events, oldest first.
    public func perDay(org: OrgID, app: AppID, from: String, to: String) throws -> [Day] {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT d.day::text AS day, coalesce(s.sessions, 0)::text AS sessions,
                    coalesce(s.installs, 0)::text AS installs, coalesce(v.screens, 0)::text AS screens,
                    coalesce(e.events, 0)::text AS events
                FROM (
                    SELECT day FROM ingest_sessions WHERE org_id = $1::uuid AND app_id = $2::uuid
                        AND day BETWEEN $3::date AND $4::date
                    UNION SELECT day FROM ingest_screen_views WHERE org_id = $1::uuid AND app_id = $2::uuid
                        AND day BETWEEN $3::date AND $4::date
                    UNION SELECT day FROM ingest_event_batches WHERE org_id = $1::uuid AND app_id = $2::uuid
                        AND day BETWEEN $3::date AND $4::date
                ) d
                LEFT JOIN (
                    SELECT day, count(*) AS sessions, count(DISTINCT install_hash) AS installs FROM ingest_sessions
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND day BETWEEN $3::date AND $4::date GROUP BY day
                ) s ON s.day = d.day
                LEFT JOIN (
                    SELECT day, count(*) AS screens FROM ingest_screen_views
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND day BETWEEN $3::date AND $4::date GROUP BY day
                ) v ON v.day = d.day
                LEFT JOIN (
                    SELECT day, sum(cardinality(event_ns)) AS events FROM ingest_event_batches
                    WHERE org_id = $1::uuid AND app_id = $2::uuid AND day BETWEEN $3::date AND $4::date GROUP BY day
                ) e ON e.day = d.day
                ORDER BY d.day
                """, [.text(org.description), .text(app.description), .text(from), .text(to)],
                in: .org(org.uuid)).rows
        }
        return try rows.map { row in
            guard let sessions = Int(try row.string("sessions")), let installs = Int(try row.string("installs")),
                  let screens = Int(try row.string("screens")), let events = Int(try row.string("events")) else {
                throw InconsistentState("stored session counts do not read back")
            }
            return Day(day: try row.string("day"), sessions: sessions, installs: installs, screens: screens,
                       events: events)
        }
    }
}
