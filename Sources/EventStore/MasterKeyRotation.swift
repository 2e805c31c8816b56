import Crypto
import Domain
import Foundation
import Postgres

/// Re-wraps every live subject key under the current master key: `handoff keys rotate master`.
///
/// Online: rows are read in primary-key order in batches of `batchSize`, and each batch is re-wrapped in a
/// transaction of its own, so readers never wait on more than one batch's row locks and a stop (a signal, a crash,
/// a lost connection) loses at most the batch in flight, which rolls back. Resumable without any saved state: a row
/// is done when it names the current key (`master_key_id`), so a new run picks up exactly the rows still to do.
/// Each UPDATE requires the wrapped key the batch read, so a key destroyed (erased) or re-wrapped by another run in
/// between is left as it is: a rotation never brings an erased key back. The data key itself never changes, so
/// nothing sealed under it (personal data in events, app and surface secrets, sealed codes) needs touching.
///
/// Needs UPDATE on `subject_keys`: the owner role (`MIGRATION_DATABASE_URL`).
public struct MasterKeyRotation: Sendable {
    /// How far a run got; `total` is how many rows needed re-wrapping when it started.
    public struct Progress: Sendable, Equatable {
        public var rewrapped = 0
        /// Rows that changed between reading and re-wrapping (destroyed, or re-wrapped by another run).
        public var skipped = 0
        /// Rows that no configured master key opens; they stay as they are.
        public var unopenable = 0
        public var total = 0

        /// Nothing done yet.
        public init() {}

        /// Rows handled so far, whatever became of them.
        public var done: Int { rewrapped + skipped + unopenable }
    }

    /// The outcome of a run.
    public struct Report: Sendable {
        public var progress: Progress
        /// True when the run stopped early because `shouldStop` said so (run again to resume).
        public var stopped: Bool
        /// Live rows still not under the current key after the run, by the key id they name ("none" before 0025).
        public var remaining: [String: Int]
        /// The first few rows no configured key opens (org, subject), for the operator to look into.
        public var unopenableRows: [(org: UUID, subject: String)]

        /// True when every live row is under the current master key: the previous keys are no longer needed.
        public var isComplete: Bool { !stopped && remaining.isEmpty }
    }

    /// The label `remaining` uses for rows that name no key (wrapped before migration 0025).
    public static let unnamedKey = "none"
    /// How many unopenable rows a report lists at most.
    public static let listedUnopenableRows = 20

    private let keys: SubjectKeys
    private let batchSize: Int

    /// A rotation to `masterKeys.current`, opening rows with whichever configured key they name.
    public init(masterKeys: MasterKeyRing, batchSize: Int = 500) {
        precondition(batchSize > 0, "MasterKeyRotation: the batch size must be positive")
        self.keys = SubjectKeys(masterKeys: masterKeys)
        self.batchSize = batchSize
    }

    /// Live rows by the master key id they name (`none` for rows from before 0025), the current key's included.
    public static func liveRows(on connection: Connection) throws -> [String: Int] {
        let rows = try connection.query("""
            SELECT coalesce(master_key_id, '\(unnamedKey)') AS key_id, count(*) AS n FROM subject_keys
            WHERE wrapped_key IS NOT NULL GROUP BY 1
            """).rows
        var counts: [String: Int] = [:]
        for row in rows { counts[try row.string("key_id")] = try row.int("n") }
        return counts
    }

    /// Destroyed (erased) rows: nothing to re-wrap.
    public static func destroyedRows(on connection: Connection) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM subject_keys WHERE wrapped_key IS NULL").rows[0].int("n")
    }

    /// Re-wraps every live row not under the current key, batch by batch, on `connection` (outside a transaction).
    ///
    /// `shouldStop` is asked before each batch; `progress` is called after each. Throws `PostgresError` when the
    /// database fails (the batch in flight rolls back; run again to resume).
    public func run(
        on connection: Connection, shouldStop: () -> Bool = { false }, progress: (Progress) -> Void = { _ in }
    ) throws -> Report {
        let current = keys.masterKeys.current.id
        var state = Progress()
        state.total = try Self.liveRows(on: connection).filter { $0.key != current }.values.reduce(0, +)
        progress(state)
        var cursor: (org: String, subject: String)?
        var unopenable: [(org: UUID, subject: String)] = []
        var stopped = false
        while true {
            if shouldStop() {
                stopped = true
                break
            }
            let batch = try nextBatch(after: cursor, current: current, on: connection)
            guard let last = batch.last else { break }
            try connection.execute("BEGIN")
            do {
                for row in batch {
                    switch try rewrap(row, on: connection) {
                    case .rewrapped: state.rewrapped += 1
                    case .skipped: state.skipped += 1
                    case .unopenable:
                        state.unopenable += 1
                        if unopenable.count < Self.listedUnopenableRows { unopenable.append((row.org, row.subject)) }
                    }
                }
                try connection.execute("COMMIT")
            } catch {
                if !connection.isBroken { try? connection.execute("ROLLBACK") }
                throw error
            }
            cursor = (last.org.lowercasedText, last.subject)
            progress(state)
        }
        let remaining = try Self.liveRows(on: connection).filter { $0.key != current }
        return Report(progress: state, stopped: stopped, remaining: remaining, unopenableRows: unopenable)
    }

    // MARK: - Batches

    private struct Row {
        var org: UUID
        var subject: String
        var wrapped: [UInt8]
        var masterKeyID: String?
    }

    private enum Outcome { case rewrapped, skipped, unopenable }

    private func nextBatch(after cursor: (org: String, subject: String)?, current: String,
                           on connection: Connection) throws -> [Row] {
        let select = "SELECT org_id, subject_id, wrapped_key, master_key_id FROM subject_keys "
            + "WHERE wrapped_key IS NOT NULL AND master_key_id IS DISTINCT FROM $1"
        let order = " ORDER BY org_id, subject_id LIMIT $2"
        let rows = if let cursor {
            try connection.queryPrepared(select + " AND (org_id, subject_id) > ($3::uuid, $4::text)" + order,
                                         [.text(current), .int(batchSize), .text(cursor.org), .text(cursor.subject)])
        } else {
            try connection.queryPrepared(select + order, [.text(current), .int(batchSize)])
        }
        return try rows.rows.map { row in
            guard let org = UUID(canonicalText: try row.string("org_id")), let wrapped = row.bytes("wrapped_key") else {
                throw PostgresError(kind: .other, message: "subject_keys returned a malformed row")
            }
            return Row(org: org, subject: try row.string("subject_id"), wrapped: wrapped,
                       masterKeyID: row["master_key_id"])
        }
    }

    private func rewrap(_ row: Row, on connection: Connection) throws -> Outcome {
        guard let key = keys.unwrap(row.wrapped, masterKeyID: row.masterKeyID, org: row.org, subject: row.subject)
        else { return .unopenable }
        let rewrapped = keys.wrap(key, org: row.org, subject: row.subject)
        let updated = try connection.queryPrepared("""
            UPDATE subject_keys SET wrapped_key = $4, master_key_id = $5
            WHERE org_id = $1 AND subject_id = $2 AND wrapped_key = $3 AND destroyed_at IS NULL
            RETURNING 1 AS updated
            """, [.text(row.org.lowercasedText), .text(row.subject), .bytea(row.wrapped), .bytea(rewrapped),
                  .text(keys.masterKeys.current.id)])
        return updated.rows.isEmpty ? .skipped : .rewrapped
    }
}
