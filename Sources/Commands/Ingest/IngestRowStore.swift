import Domain
import EventStore
import Foundation
import Postgres

/// Writes stored batches into the day-partitioned ingest tables (migration 0029) and keeps their partitions: made
/// ahead of time, and dropped whole once older than the retention.
///
/// A batch is one round trip: the org scope and `ingest_write` (session upsert, events, screen views, account tokens,
/// erase proof; migrations 0042, 0044 and 0048) in a pipeline, one implicit transaction. A row whose day has no
/// partition yet (a clock far off, a fresh deployment) makes the partitions of the batch's days and the batch is
/// written again, once.
public struct IngestRowStore: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// Keeps ingest rows this many days by default (issue 20).
    public static let defaultRetentionDays = 400

    /// What a write read on its way: the install's recorded tier when the batch identifies it with attribution
    /// granted (what `IdentifyInstall.run` decides from), read in the write's own round trip.
    public struct Written: Sendable {
        /// The install's tier after the write, when the batch carried an identity with attribution granted and the
        /// install is recorded; nil otherwise.
        public let identifiedInstallTier: InstallTier?
    }

    /// Writes `rows`: the session is inserted or its last sighting, batch count and SDK moved (a new session, the next
    /// part of its `sid`, after more than `rows.session.timeoutMs` without activity); an event already
    /// stored (same session and `n`) is skipped; a screen view replaces the stored one only with a higher `seq`.
    @discardableResult
    public func write(_ rows: IngestRows) throws -> Written {
        let statements = Self.statements(rows)
        let results: [QueryResult]
        do {
            results = try pool.withConnection { try $0.pipeline(statements) }
        } catch let error as PostgresError where error.sqlState == "23514" && error.message.contains("partition") {
            let days = ([rows.session.startedAt, rows.session.lastSeenAt] + rows.events.map(\.occurredAt)
                + rows.screenViews.map(\.startedAt)).map(Self.epochDay)
            try ensurePartitions(fromEpochDay: days.min() ?? 0, toEpochDay: days.max() ?? 0)
            results = try pool.withConnection { try $0.pipeline(statements) }
        }
        return Written(identifiedInstallTier: try results.last?.rows.first.flatMap { row in
            row.isNull("tier") ? nil : InstallTier(rawValue: try row.string("tier"))
        })
    }

    /// A batch with an identity and attribution granted may move its install to the `identity` tier: its write reads
    /// the install's tier too.
    static func readsTier(_ rows: IngestRows) -> Bool { !rows.identity.isEmpty && rows.attributionGranted }

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

    /// The events as `ingest_write` stores them (migration 0049): by session, UTC day and `n`, the first of equal
    /// ones kept. A batch of one session and day then goes in as its arrays, one row, without a sort in Postgres.
    static func storedOrder(_ events: [IngestRows.Event]) -> [IngestRows.Event] {
        let dayMillis = 86_400_000
        let keyed = events.enumerated().map { position, event in
            let millis = millis(event.occurredAt)
            let day = (millis - ((millis % dayMillis) + dayMillis) % dayMillis) / dayMillis
            return (key: (session: event.sessionId, day: day, n: event.n, position: position), event: event)
        }
        let sorted = keyed.sorted { $0.key < $1.key }
        var kept: [IngestRows.Event] = []
        kept.reserveCapacity(sorted.count)
        var last: (session: String, day: Int, n: Int)?
        for item in sorted {
            let key = (item.key.session, item.key.day, item.key.n)
            if let last, last == key { continue }
            last = key
            kept.append(item.event)
        }
        return kept
    }

    private static func statements(_ rows: IngestRows) -> [Statement] {
        let session = rows.session
        var eventSessions = PostgresArray(.text), numbers = PostgresArray(.bigint), names = PostgresArray(.text)
        var times = PostgresArray(.bigint), props = PostgresArray(.json)
        for event in storedOrder(rows.events) {
            eventSessions.append(event.sessionId)
            numbers.append(event.n)
            names.append(event.name)
            times.append(millis(event.occurredAt))
            if let text = event.props { props.append(text) } else { props.appendNull() }
        }
        // One row per view in a statement (ON CONFLICT DO UPDATE may touch a row once): the highest seq wins.
        var latest: [String: IngestRows.ScreenView] = [:]
        for view in rows.screenViews {
            let key = view.sessionId + "\u{0}" + view.viewId
            if let kept = latest[key], kept.seq >= view.seq { continue }
            latest[key] = view
        }
        var viewSessions = PostgresArray(.text), ids = PostgresArray(.text), seqs = PostgresArray(.integer)
        var starts = PostgresArray(.bigint), ends = PostgresArray(.bigint), navs = PostgresArray(.text)
        var paths = PostgresArray(.text), engaged = PostgresArray(.bigint), taps = PostgresArray(.integer)
        var itaps = PostgresArray(.integer)
        for view in latest.values.sorted(by: { ($0.sessionId, $0.viewId) < ($1.sessionId, $1.viewId) }) {
            viewSessions.append(view.sessionId)
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
        var kinds = PostgresArray(.text), tokens = PostgresArray(.text)
        for (kind, token) in rows.identity.sorted(by: { $0.key < $1.key }) {
            kinds.append(kind)
            tokens.append(token)
        }
        // `ingest_write` (migration 0048): the org scope checked once, the rows inserted without a per-row policy, the
        // install's account tokens and erase proof kept, and its tier read when the batch may move it.
        return [
            OrgScope.org(rows.orgId.uuid).statement,
            Statement("""
                SELECT ingest_write($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                    $15, $16::text[], $17::bigint[], $18::text[], $19::bigint[], $20::json[], $21::text[],
                    $22::text[], $23::integer[], $24::bigint[], $25::bigint[], $26::text[], $27::text[],
                    $28::bigint[], $29::integer[], $30::integer[], $31::boolean, $32::text[], $33::text[], $34,
                    $35::boolean) AS tier
                """, [.text(rows.orgId.description), .text(rows.projectId.description), .text(rows.appId.description),
                      .text(rows.installHash), .text(session.sessionId), .int(millis(session.startedAt)),
                      .int(millis(session.lastSeenAt)), .int(session.timeoutMs), .optional(session.sdk),
                      .optional(session.sdkVersion), .optional(session.wrapper), .optional(session.wrapperVersion),
                      .optional(session.osVersion), .optional(session.appVersion), .text(session.consent),
                      eventSessions.value, numbers.value, names.value, times.value, props.value, viewSessions.value,
                      ids.value, seqs.value, starts.value, ends.value, navs.value, paths.value, engaged.value,
                      taps.value, itaps.value, .bool(rows.attributionGranted), kinds.value, tokens.value,
                      .optional(rows.eraseProof), .bool(readsTier(rows))], prepared: true),
        ]
    }
}
