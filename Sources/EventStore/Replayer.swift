import Domain
import Foundation
import Postgres

/// Rebuilds inline projections from the event log into fresh tables and swaps them in atomically (`handoff replay`).
///
/// 1. **Prepare**: for every table the projections own, `CREATE TABLE replay_x (LIKE x INCLUDING ALL)` (leftovers of
///    an interrupted replay are dropped first). A table referenced by a foreign key is refused: the swap would take
///    the reference along to the old table.
/// 2. **Rebuild**: apply every event, by `(org_id, org_seq)`, into the `replay_` tables, one short transaction per
///    page (a long transaction would hold back the xid horizon that global consumers wait behind). Live appends
///    go on meanwhile; the replayer remembers the last `org_seq` it applied per org.
/// 3. **Swap**, in one transaction: `LOCK TABLE` the live tables `ACCESS EXCLUSIVE` (in registry order, the order
///    appends touch them), apply what was committed since step 2 (the counter rows say how far each org is), copy
///    the live tables' grants (table and column) and row-level security (the switch and every policy), rename live
///    → `replay_old_x` and `replay_x` → live, give the new tables' indexes the old index names, drop the old tables,
///    commit.
///
/// Why `(org_id, org_seq)` gives the live result: an append holds its org's counter-row lock while it runs the
/// projections, so live applies each org's events exactly in `org_seq` order; across orgs live order is whatever
/// commit interleaving happened and is not in the log, so a projection whose result depended on it could not be
/// rebuilt by any order — projections must be per-org deterministic (`InlineProjection`).
///
/// Appends during the swap: one that reaches a projection table waits for the lock (the swap lasts as long as the
/// catch-up plus a few renames), then resolves the table name again and writes into the new table; its own events
/// were not committed when the swap read the log, so they are applied exactly once, by the append itself.
/// Runs as the schema owner (it creates, renames and drops tables).
public struct Replayer: Sendable {
    /// Where one run stands, for a progress display.
    public struct Progress: Sendable, Equatable {
        /// Events applied so far (rebuild and catch-up).
        public var applied: Int
        /// Events in the log when the run started (an estimate once appends go on).
        public var total: Int

        public init(applied: Int, total: Int) {
            self.applied = applied
            self.total = total
        }
    }

    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// Events applied while rebuilding, outside the lock.
        public var rebuilt: Int
        /// Events applied under the lock, committed while the rebuild ran.
        public var caughtUp: Int
        /// The live tables that were replaced, in registry order.
        public var tables: [String]

        public init(rebuilt: Int, caughtUp: Int, tables: [String]) {
            self.rebuilt = rebuilt
            self.caughtUp = caughtUp
            self.tables = tables
        }
    }

    /// The prefix of the tables a replay builds.
    public static let replayTables = ProjectionTables(prefix: "replay_")
    /// The prefix the live tables get for the moment between the renames and the drop.
    public static let retiredTables = ProjectionTables(prefix: "replay_old_")

    /// The projections to rebuild, in the order appends run them.
    public let projections: [any InlineProjection]
    /// Events per read (and per rebuild transaction).
    public let pageSize: Int
    /// `lock_timeout` of the swap in milliseconds; when the lock cannot be had in time the swap is retried.
    public let lockTimeoutMilliseconds: Int

    /// A replayer for `projections` (pass the same list the service's `EventLog` runs).
    public init(projections: [any InlineProjection], pageSize: Int = 1000, lockTimeoutMilliseconds: Int = 5000) {
        self.projections = projections
        self.pageSize = max(1, pageSize)
        self.lockTimeoutMilliseconds = max(1, lockTimeoutMilliseconds)
    }

    /// The tables the projections own, each once, in registry order.
    public var tables: [String] {
        var seen = Set<String>()
        return projections.flatMap(\.tables).filter { seen.insert($0).inserted }
    }

    /// Rebuilds and swaps; `progress` is called after every page. `connection` must be the owner's and not inside a
    /// transaction. Throws `ReplayError` for a missing or referenced table, `PostgresError` for database failures
    /// (the live tables are then untouched; `replay_` leftovers are dropped by the next run).
    @discardableResult
    public func run(on connection: Connection, progress: (Progress) -> Void = { _ in }) throws -> Report {
        let tables = self.tables
        guard !tables.isEmpty else { return Report(rebuilt: 0, caughtUp: 0, tables: []) }
        try inTransaction(connection) { try prepare(tables, on: connection) }
        let total = try connection.query("SELECT coalesce(sum(last_seq), 0)::bigint AS total FROM event_orgs")
            .rows[0].int("total")
        var state = Progress(applied: 0, total: total)
        progress(state)

        var appliedSeq: [UUID: Int] = [:]
        var cursor = (org: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), seq: 0)
        while true {
            let count = try inTransaction(connection) { () -> Int in
                let rows = try connection.queryPrepared("""
                    SELECT \(RecordedEvent.columns) FROM events
                    WHERE (org_id, org_seq) > ($1::uuid, $2::bigint) ORDER BY org_id, org_seq LIMIT $3
                    """, [.text(cursor.org.lowercasedText), .int(cursor.seq), .int(pageSize)]).rows
                for row in rows {
                    let event = try RecordedEvent(row: row)
                    try apply(event, on: connection)
                    appliedSeq[event.orgId] = event.orgSeq
                    cursor = (event.orgId, event.orgSeq)
                }
                return rows.count
            }
            state.applied += count
            state.total = max(state.total, state.applied)
            progress(state)
            if count < pageSize { break }
        }
        let rebuilt = state.applied

        var attempt = 1
        while true {
            do {
                let caughtUp = try inTransaction(connection) {
                    try swap(tables, appliedSeq: appliedSeq, on: connection) { applied in
                        state.applied = rebuilt + applied
                        state.total = max(state.total, state.applied)
                        progress(state)
                    }
                }
                return Report(rebuilt: rebuilt, caughtUp: caughtUp, tables: tables)
            } catch let error as PostgresError where error.sqlState == "55P03" && attempt < 5 {
                attempt += 1  // lock_timeout: long transactions held a projection table; try again.
            }
        }
    }

    // MARK: - Steps

    private func prepare(_ tables: [String], on connection: Connection) throws {
        let live = ProjectionTables.live
        for table in tables {
            try connection.execute("DROP TABLE IF EXISTS \(Self.replayTables[table])")
            try connection.execute("DROP TABLE IF EXISTS \(Self.retiredTables[table])")
            guard try connection.query("SELECT to_regclass($1) IS NOT NULL AS found", [.text(live[table])])
                .rows[0].bool("found") else { throw ReplayError.missingTable(table) }
            let references = try connection.query("""
                SELECT conname FROM pg_constraint WHERE contype = 'f' AND confrelid = $1::regclass
                """, [.text(live[table])]).rows
            if let reference = references.first?["conname"] {
                throw ReplayError.referencedByForeignKey(table: table, constraint: reference)
            }
            try connection.execute(
                "CREATE TABLE \(Self.replayTables[table]) (LIKE \(live[table]) INCLUDING ALL)")
        }
    }

    private func apply(_ event: RecordedEvent, on connection: Connection) throws {
        for projection in projections {
            try projection.apply(event, on: connection, tables: Self.replayTables)
        }
        try connection.sendQueued()
    }

    /// Locks the live tables, catches up, swaps; returns how many events the catch-up applied.
    private func swap(
        _ tables: [String], appliedSeq: [UUID: Int], on connection: Connection, progress: (Int) -> Void
    ) throws -> Int {
        let live = ProjectionTables.live
        try connection.execute("SET LOCAL lock_timeout = \(lockTimeoutMilliseconds)")
        try connection.execute(
            "LOCK TABLE \(tables.map { live[$0] }.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE")
        try connection.execute("SET LOCAL lock_timeout = 0")

        var caughtUp = 0
        let counters = try connection.query("SELECT org_id, last_seq FROM event_orgs ORDER BY org_id").rows
        for counter in counters {
            guard let org = UUID(canonicalText: try counter.string("org_id")) else { continue }
            let last = try counter.int("last_seq")
            var next = (appliedSeq[org] ?? 0) + 1
            while next <= last {
                let events = try EventReader.readHistory(org: org, fromSeq: next, limit: pageSize, on: connection)
                for event in events { try apply(event, on: connection) }
                caughtUp += events.count
                progress(caughtUp)
                guard let lastRead = events.last?.orgSeq else { break }
                next = lastRead + 1
            }
        }

        for table in tables {
            try copyGrants(from: live[table], to: Self.replayTables[table], on: connection)
            try copyRowSecurity(from: live[table], to: Self.replayTables[table], on: connection)
            try connection.execute("ALTER TABLE \(live[table]) RENAME TO \(Self.retiredTables[table])")
            try connection.execute("ALTER TABLE \(Self.replayTables[table]) RENAME TO \(live[table])")
            let renames = try indexRenames(from: Self.retiredTables[table], to: live[table], on: connection)
            try connection.execute("DROP TABLE \(Self.retiredTables[table])")
            for (current, original) in renames where current != original {
                try connection.execute("ALTER INDEX \(quoted(current)) RENAME TO \(quoted(original))")
            }
        }
        return caughtUp
    }

    /// Pairs each index of `new` with the index of `old` that has the same definition (after the table name).
    private func indexRenames(from old: String, to new: String, on connection: Connection) throws
        -> [(current: String, original: String)]
    {
        try connection.query("""
            SELECT DISTINCT ON (n.relname) n.relname AS current, o.relname AS original
            FROM pg_index ni JOIN pg_class n ON n.oid = ni.indexrelid,
                 pg_index oi JOIN pg_class o ON o.oid = oi.indexrelid
            WHERE ni.indrelid = $2::regclass AND oi.indrelid = $1::regclass
              AND ni.indisunique = oi.indisunique AND ni.indisprimary = oi.indisprimary
              AND split_part(pg_get_indexdef(ni.indexrelid), ' USING ', 2)
                  = split_part(pg_get_indexdef(oi.indexrelid), ' USING ', 2)
            ORDER BY n.relname, o.relname
            """, [.text(old), .text(new)]).rows.map { (try $0.string("current"), try $0.string("original")) }
    }

    private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private func inTransaction<T>(_ connection: Connection, _ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN")
        do {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}

/// Why a replay could not start.
public enum ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A projection declares a table that does not exist (its migration has not run).
    case missingTable(String)
    /// Another table's foreign key points at a projection table; swapping would drag it along.
    case referencedByForeignKey(table: String, constraint: String)

    public var description: String {
        switch self {
        case .missingTable(let table):
            return "projection table \(table) does not exist (run handoff migrate first)"
        case .referencedByForeignKey(let table, let constraint):
            return "projection table \(table) is referenced by foreign key \(constraint); replay cannot swap it"
        }
    }
}
