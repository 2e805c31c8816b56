import Domain
import Foundation
import Postgres

/// Reads of the event log on a connection the caller holds (inside or outside a transaction).
public enum EventReader {
    /// The events of one stream from `fromVersion` on, in stream order, at most `limit`.
    ///
    /// `scope`: run under it in one round trip (a pooled connection outside a transaction, as the application
    /// role); nil inside a scoped transaction or as the owner.
    public static func readStream(
        org: UUID, stream: String, fromVersion: Int = 1, limit: Int = 1000, on connection: Connection,
        in scope: OrgScope? = nil
    ) throws -> [RecordedEvent] {
        try query(connection, scope, """
            SELECT \(RecordedEvent.columns) FROM events
            WHERE org_id = $1 AND stream_id = $2 AND stream_version >= $3 ORDER BY stream_version LIMIT $4
            """, [.text(org.lowercasedText), .text(stream), .int(fromVersion), .int(limit)]).rows.map(RecordedEvent.init)
    }

    /// An org's history from `fromSeq` on, by `org_seq`, at most `limit`.
    ///
    /// `org_seq` is gapless and assigned under the org's lock, so a reader never sees `n+1` without `n`.
    /// `scope` as for `readStream`.
    public static func readHistory(
        org: UUID, fromSeq: Int = 1, limit: Int = 1000, on connection: Connection, in scope: OrgScope? = nil
    ) throws -> [RecordedEvent] {
        try query(connection, scope, """
            SELECT \(RecordedEvent.columns) FROM events
            WHERE org_id = $1 AND org_seq >= $2 ORDER BY org_seq LIMIT $3
            """, [.text(org.lowercasedText), .int(fromSeq), .int(limit)]).rows.map(RecordedEvent.init)
    }

    /// Up to `limit` events of all orgs after `checkpoint`, ordered by `(tx_id, global_pos)`.
    ///
    /// Only transactions older than the oldest one still running are read
    /// (`tx_id < pg_snapshot_xmin(pg_current_snapshot())`): their events are final, so nothing can later appear
    /// before the returned ones. Run it at the start of a transaction that has not written yet (or outside one).
    public static func readGlobal(
        after checkpoint: GlobalCheckpoint, limit: Int = 1000, on connection: Connection
    ) throws -> [RecordedEvent] {
        // `event_read_global` (migration 0015) reads every org's events past row-level security; it runs this very
        // query as the owner and is the application role's only way to see more than one org's log.
        try connection.queryPrepared("""
            SELECT \(RecordedEvent.columns) FROM event_read_global($1::xid8, $2::bigint, $3::integer)
            """, [.text(String(checkpoint.transactionId)), .int(checkpoint.globalPosition), .int(limit)])
            .rows.map(RecordedEvent.init)
    }

    /// The stream's current version (its last `stream_version`, 0 when it has no events).
    public static func streamVersion(org: UUID, stream: String, on connection: Connection) throws -> Int {
        // ORDER BY … LIMIT 1 rather than max(): on a young table without statistics the planner ran max() as a scan
        // over the stream's whole index range; this form always walks the unique index backwards for one row.
        let rows = try connection.queryPrepared("""
            SELECT stream_version FROM events WHERE org_id = $1 AND stream_id = $2
            ORDER BY stream_version DESC LIMIT 1
            """, [.text(org.lowercasedText), .text(stream)]).rows
        return try rows.first?.int("stream_version") ?? 0
    }

    private static func query(_ connection: Connection, _ scope: OrgScope?, _ sql: String,
                              _ parameters: [PostgresValue]) throws -> QueryResult {
        guard let scope else { return try connection.queryPrepared(sql, parameters) }
        return try connection.queryPrepared(sql, parameters, in: scope)
    }
}
