import Domain
import EventStore
import Foundation
import Postgres

/// Writes stored batches into the day-partitioned ingest tables (migration 0029) and keeps their partitions: made
/// ahead of time, and dropped whole once older than the retention.
///
/// A batch is one round trip: the org scope and three statements (session upsert, events, screen views) in a
/// pipeline, one implicit transaction. A row whose day has no partition yet (a clock far off, a fresh deployment)
/// makes the partitions of the batch's days and the batch is written again, once.
public struct IngestRowStore: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// Keeps ingest rows this many days by default (issue 20).
    public static let defaultRetentionDays = 400

    /// Writes `rows`: the session is inserted or its last sighting, batch count and SDK moved; an event already
    /// stored (same install, session and `n`) is skipped; a screen view replaces the stored one only with a higher
    /// `seq`. Rows are keyed by install too (migration 0040): two installs sending the same `sid` do not meet.
    public func write(_ rows: IngestRows) throws {
        let statements = Self.statements(rows)
        do {
            try pool.withConnection { try $0.pipeline(statements) }
        } catch let error as PostgresError where error.sqlState == "23514" && error.message.contains("partition") {
            let days = ([rows.session.startedAt, rows.session.lastSeenAt] + rows.events.map(\.occurredAt)
                + rows.screenViews.map(\.startedAt)).map(Self.epochDay)
            try ensurePartitions(fromEpochDay: days.min() ?? 0, toEpochDay: days.max() ?? 0)
            try pool.withConnection { try $0.pipeline(statements) }
        }
    }

    /// Makes the partitions of the days `from…to` (days since 1970-01-01, UTC) that are missing; answers how many.
    @discardableResult
    public func ensurePartitions(fromEpochDay from: Int, toEpochDay to: Int) throws -> Int {
        try pool.withConnection { connection in
            try connection.query("""
                SELECT ingest_ensure_partitions(date '1970-01-01' + $1::integer, date '1970-01-01' + $2::integer)
                    AS made
                """, [.int(from), .int(to)]).rows.first.map { Int(try $0.string("made")) ?? 0 } ?? 0
        }
    }

    /// Retention: drops every partition of a day more than `retentionDays` before `now` and makes those of the next
    /// two days; answers how many partitions were dropped.
    @discardableResult
    public func applyRetention(now: Date, retentionDays: Int = defaultRetentionDays) throws -> Int {
        let today = Self.epochDay(now)
        try ensurePartitions(fromEpochDay: today, toEpochDay: today + 2)
        return try pool.withConnection { connection in
            try connection.query("""
                SELECT ingest_drop_partitions(date '1970-01-01' + $1::integer) AS dropped
                """, [.int(today - retentionDays)]).rows.first.map { Int(try $0.string("dropped")) ?? 0 } ?? 0
        }
    }

    /// Days since 1970-01-01 of `date`, in UTC.
    static func epochDay(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / 86400).rounded(.down)) }

    private static func millis(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded()) }

    private static let dayOf = "(to_timestamp(%@::bigint / 1000.0) AT TIME ZONE 'UTC')::date"

    private static func statements(_ rows: IngestRows) -> [Statement] {
        let org = PostgresValue.text(rows.orgId.description)
        let app = PostgresValue.text(rows.appId.description)
        let install = PostgresValue.text(rows.installHash)
        let session = rows.session
        var statements = [
            OrgScope.org(rows.orgId.uuid).statement,
            Statement("""
                INSERT INTO ingest_sessions AS s (day, org_id, project_id, app_id, install_hash, session_id, started_at,
                    last_seen_at, batches, sdk, sdk_version, os_version, app_version, consent)
                VALUES (\(dayOf.replacingOccurrences(of: "%@", with: "$6")), $1::uuid, $2::uuid, $3::uuid, $4, $5,
                    to_timestamp($6::bigint / 1000.0), to_timestamp($7::bigint / 1000.0), 1, $8, $9, $10, $11, $12)
                ON CONFLICT (day, app_id, session_id, install_hash) DO UPDATE SET
                    last_seen_at = greatest(s.last_seen_at, EXCLUDED.last_seen_at), batches = s.batches + 1,
                    sdk = EXCLUDED.sdk, sdk_version = EXCLUDED.sdk_version, os_version = EXCLUDED.os_version,
                    app_version = EXCLUDED.app_version, consent = EXCLUDED.consent
                """, [org, .text(rows.projectId.description), app, install, .text(session.sessionId),
                      .int(millis(session.startedAt)), .int(millis(session.lastSeenAt)), .optional(session.sdk),
                      .optional(session.sdkVersion), .optional(session.osVersion), .optional(session.appVersion),
                      .text(session.consent)], prepared: true),
        ]
        if !rows.events.isEmpty {
            var sessions = PostgresArray(.text), numbers = PostgresArray(.bigint), names = PostgresArray(.text)
            var times = PostgresArray(.bigint), props = PostgresArray(.jsonb)
            for event in rows.events {
                sessions.append(event.sessionId)
                numbers.append(event.n)
                names.append(event.name)
                times.append(millis(event.occurredAt))
                if let text = event.props { props.append(text) } else { props.appendNull() }
            }
            statements.append(Statement("""
                INSERT INTO ingest_events (day, org_id, app_id, install_hash, session_id, n, name, occurred_at, props,
                    received_at)
                SELECT \(dayOf.replacingOccurrences(of: "%@", with: "u.t")), $1::uuid, $2::uuid, $3, u.s, u.n, u.name,
                    to_timestamp(u.t / 1000.0), u.p, now()
                FROM unnest($4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::jsonb[]) AS u(s, n, name, t, p)
                ON CONFLICT DO NOTHING
                """, [org, app, install, sessions.value, numbers.value, names.value, times.value, props.value],
                prepared: true))
        }
        // One row per view in a statement (ON CONFLICT DO UPDATE may touch a row once): the highest seq wins.
        var latest: [String: IngestRows.ScreenView] = [:]
        for view in rows.screenViews {
            let key = view.sessionId + "\u{0}" + view.viewId
            if let kept = latest[key], kept.seq >= view.seq { continue }
            latest[key] = view
        }
        if !latest.isEmpty {
            var sessions = PostgresArray(.text), ids = PostgresArray(.text), seqs = PostgresArray(.integer)
            var starts = PostgresArray(.bigint), ends = PostgresArray(.bigint), navs = PostgresArray(.text)
            var paths = PostgresArray(.text), engaged = PostgresArray(.bigint), taps = PostgresArray(.integer)
            var itaps = PostgresArray(.integer)
            for view in latest.values.sorted(by: { ($0.sessionId, $0.viewId) < ($1.sessionId, $1.viewId) }) {
                sessions.append(view.sessionId)
                ids.append(view.viewId)
                seqs.append(view.seq)
                starts.append(millis(view.startedAt))
                if let end = view.endedAt { ends.append(millis(end)) } else { ends.appendNull() }
                if let nav = view.nav { navs.append(nav) } else { navs.appendNull() }
                if let path = view.path { paths.append(path) } else { paths.appendNull() }
                if let value = view.engagedMs { engaged.append(value) } else { engaged.appendNull() }
                if let value = view.taps { taps.append(value) } else { taps.appendNull() }
                if let value = view.itaps { itaps.append(value) } else { itaps.appendNull() }
            }
            statements.append(Statement("""
                INSERT INTO ingest_screen_views AS v (day, org_id, app_id, install_hash, session_id, view_id, seq,
                    started_at, ended_at, nav, path, engaged_ms, taps, itaps, received_at)
                SELECT \(dayOf.replacingOccurrences(of: "%@", with: "u.t0")), $1::uuid, $2::uuid, $3, u.s, u.id, u.seq,
                    to_timestamp(u.t0 / 1000.0), to_timestamp(u.t1 / 1000.0), u.nav, u.path, u.eng, u.taps, u.itaps,
                    now()
                FROM unnest($4::text[], $5::text[], $6::integer[], $7::bigint[], $8::bigint[], $9::text[], $10::text[],
                            $11::bigint[], $12::integer[], $13::integer[])
                    AS u(s, id, seq, t0, t1, nav, path, eng, taps, itaps)
                ON CONFLICT (day, app_id, session_id, install_hash, view_id) DO UPDATE SET seq = EXCLUDED.seq,
                    started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at, nav = EXCLUDED.nav,
                    path = EXCLUDED.path, engaged_ms = EXCLUDED.engaged_ms, taps = EXCLUDED.taps,
                    itaps = EXCLUDED.itaps, received_at = EXCLUDED.received_at
                WHERE v.seq < EXCLUDED.seq
                """, [org, app, install, sessions.value, ids.value, seqs.value, starts.value, ends.value, navs.value,
                      paths.value, engaged.value, taps.value, itaps.value], prepared: true))
        }
        statements += identityStatements(rows)
        return statements
    }
}
