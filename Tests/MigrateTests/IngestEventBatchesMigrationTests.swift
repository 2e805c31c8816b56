import Foundation
import Migrate
import Postgres
import Testing
import TestSupport

/// Migration 0049 (docs/performance.md "bench/ingest: a batch's events in one row"): the events stored one row each
/// become one row per batch, session and day of `ingest_event_batches`, and the `ingest_events` view reads back
/// exactly the rows the table held; the partitions of the old table's days exist for the new one.
@Suite struct IngestEventBatchesMigrationTests {
    static let org = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a"
    static let app = "0c0c0c0c-0c0c-4c0c-8c0c-0c0c0c0c0c0c"

    private func connect(_ url: String) throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: url, poolSize: 1))
    }

    /// The events as the view or the old table list them, one line each.
    private func events(on connection: Connection) throws -> [String] {
        try connection.query("""
            SELECT session_id || ':' || n || ':' || name || ':' || coalesce(props::text, '-') || ':'
                || (occurred_at = day::timestamptz + interval '1 hour') || ':' || to_char(received_at, 'SS') AS e
            FROM ingest_events ORDER BY session_id, n
            """).rows.map { try $0.string("e") }
    }

    @Test func eventsStoredOneRowEachReadBackUnchangedFromOneRowPerBatchAfterMigration49() throws {
        let url = try TestDatabase.create(prefix: "migrate")
        let all = try Migration.bundled()
        let connection = try connect(url)
        _ = try Migrator(migrations: all.filter { $0.version <= 48 }).run(on: connection)
        // Two batches of session s-1 (their transactions' times differ) and one of s-2, on the migration's day.
        let insert = """
            INSERT INTO ingest_events (day, org_id, app_id, install_hash, session_id, n, name, occurred_at, props,
                received_at)
            SELECT current_date, $1::uuid, $2::uuid, repeat('ab', 32), u.s, u.n, u.name,
                current_date::timestamptz + interval '1 hour', u.p::jsonb, date_trunc('minute', now()) + u.r
            FROM (VALUES ('s-1', 2, 'tap', NULL, interval '1 second'),
                         ('s-1', 1, 'open', '{"k": 1}', interval '1 second'),
                         ('s-1', 5, 'close', NULL, interval '2 seconds'),
                         ('s-2', 1, 'open', NULL, interval '2 seconds'))
                AS u(s, n, name, p, r)
            """
        try connection.query(insert, [.text(Self.org), .text(Self.app)])
        let before = try events(on: connection)
        #expect(before.count == 4)

        _ = try Migrator(migrations: all).run(on: connection)
        #expect(try events(on: connection) == before)
        let packed = try connection.query("""
            SELECT session_id || ':' || array_to_string(event_ns, ',') || ':' || array_to_string(event_names, ',') AS r
            FROM ingest_event_batches ORDER BY session_id, first_n
            """).rows.map { try $0.string("r") }
        #expect(packed == ["s-1:1,2:open,tap", "s-1:5:close", "s-2:1:open"])
        let partitions = try connection.query("""
            SELECT count(*) FILTER (WHERE p.relname = 'ingest_event_batches') AS new,
                   count(*) FILTER (WHERE p.relname = 'ingest_events') AS old
            FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
            """).rows[0]
        #expect(try partitions.int("new") == 11 && partitions.int("old") == 0)
        let kind = try connection.query("SELECT relkind::text AS k FROM pg_class WHERE relname = 'ingest_events'")
        #expect(try kind.rows[0].string("k") == "v")
    }
}
