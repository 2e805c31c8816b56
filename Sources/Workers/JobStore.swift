import Domain
import EventStore
import Foundation
import Postgres

/// The SQL of the `jobs` table; every function runs on the caller's connection (and transaction).
///
/// The application role has no privilege on `jobs` itself (row-level security, migration 0015): the steps of the
/// dispatcher, the relay, the workers and the sweeper each call one `SECURITY DEFINER` function of the owner
/// (`job_insert`, `job_lock_due`, `job_claim`, …), which moves rows of every org by id and state. `find`, `list`,
/// `counts` and `retry` read and change the table directly: the operator's `handoff jobs` runs them as the owner.
public enum JobStore {
    /// Inserts `job` unless one with its dedupe key exists; returns the new id, or nil for a duplicate.
    @discardableResult
    public static func insert(_ job: NewJob, now: Date, on connection: Connection) throws -> Int? {
        let row = try connection.queryPrepared("""
            SELECT job_insert($1, $2::uuid, $3::jsonb, $4, to_timestamp($5::float8), to_timestamp($6::float8))
                AS job_id
            """, [.text(job.kind), .optional(job.orgId?.lowercasedText), .text(job.payload.canonicalText),
                  .text(job.dedupeKey), .double((job.runAt ?? now).timeIntervalSince1970),
                  .double(now.timeIntervalSince1970)]).rows[0]
        return row.isNull("job_id") ? nil : try row.int("job_id")
    }

    /// One job, or nil (the owner role).
    public static func find(_ id: Int, on connection: Connection) throws -> Job? {
        try connection.queryPrepared("SELECT \(Job.columns) FROM jobs WHERE job_id = $1::bigint", [.int(id)])
            .first.map(Job.init(row:))
    }

    /// Jobs newest first, filtered by state and org, at most `limit` (the owner role).
    public static func list(state: Job.State?, org: UUID?, limit: Int, on connection: Connection) throws -> [Job] {
        try connection.query("""
            SELECT \(Job.columns) FROM jobs
            WHERE ($1::text IS NULL OR state = $1) AND ($2::uuid IS NULL OR org_id = $2::uuid)
            ORDER BY job_id DESC LIMIT $3::bigint
            """, [.optional(state?.rawValue), .optional(org?.lowercasedText), .int(limit)])
            .rows.map(Job.init(row:))
    }

    /// Counts of jobs by state (every state present, zero when none; the owner role).
    public static func counts(on connection: Connection) throws -> [Job.State: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Job.State.allCases.map { ($0, 0) })
        for row in try connection.query("SELECT state, count(*)::bigint AS n FROM jobs GROUP BY state").rows {
            if let state = Job.State(rawValue: try row.string("state")) { counts[state] = try row.int("n") }
        }
        return counts
    }

    /// A dead job back to `pending` now with its attempts reset (`retries` + 1); nil when it is not dead (the owner
    /// role).
    public static func retry(_ id: Int, now: Date, on connection: Connection) throws -> Job? {
        try connection.query("""
            UPDATE jobs SET state = 'pending', attempt = 0, run_at = to_timestamp($2::float8), finished_at = NULL,
                            retries = retries + 1, stream_entry = NULL, updated_at = to_timestamp($2::float8),
                            lease_until = NULL
            WHERE job_id = $1::bigint AND state = 'dead'
            RETURNING \(Job.columns)
            """, [.int(id), .double(now.timeIntervalSince1970)]).first.map(Job.init(row:))
    }

    // MARK: - Relay, workers, sweeper

    /// Due pending jobs, oldest `run_at` first, locked for this transaction (others skip them).
    static func lockDue(now: Date, limit: Int, on connection: Connection) throws -> [(id: Int, kind: String)] {
        try connection.queryPrepared("""
            SELECT job_id, kind FROM job_lock_due(to_timestamp($1::float8), $2::bigint)
            """, [.double(now.timeIntervalSince1970), .int(limit)]).rows
            .map { (try $0.int("job_id"), try $0.string("kind")) }
    }

    static func markEnqueued(_ id: Int, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("SELECT job_mark_enqueued($1::bigint, to_timestamp($2::float8))",
                                     [.int(id), .double(now.timeIntervalSince1970)])
    }

    /// The stream entries the relay added for `enqueued` jobs, in one statement (a job that moved on or already has an
    /// entry is left alone).
    ///
    /// Rows another transaction holds are skipped, never waited for: a worker keeps its job's row locked for the whole
    /// job (SMTP included), and an update waiting on that row would keep the rows it already locked from the other
    /// workers, who give up on them after ~100 ms and leave their entries to the visibility timeout. A skipped row is
    /// one a worker is running: the worker moves it on (`done`, rescheduled or `dead`); should it crash instead, the
    /// entry is reclaimed with `XAUTOCLAIM`, or the sweeper requeues the job (no entry noted) after its check delay.
    static func noteEntries(_ entries: [(id: Int, entry: String)], on connection: Connection) throws {
        let ids = "{" + entries.map { String($0.id) }.joined(separator: ",") + "}"
        let entryIds = "{" + entries.map { "\"" + $0.entry + "\"" }.joined(separator: ",") + "}"
        try connection.queryPrepared("SELECT job_note_entries($1::bigint[], $2::text[])",
                                     [.text(ids), .text(entryIds)])
    }

    /// The job, locked for this transaction; nil when it does not exist or another transaction holds it.
    static func lockForRun(_ id: Int, on connection: Connection) throws -> Job? {
        try connection.queryPrepared("SELECT \(Job.columns) FROM job_lock_for_run($1::bigint)", [.int(id)])
            .first.map(Job.init(row:))
    }

    /// The job, locked for this transaction, waiting for a lock another step holds; nil when it does not exist.
    static func lockForOutcome(_ id: Int, on connection: Connection) throws -> Job? {
        try connection.queryPrepared("SELECT \(Job.columns) FROM job_lock_for_outcome($1::bigint)", [.int(id)])
            .first.map(Job.init(row:))
    }

    /// Claims an attempt of an `enqueued` job: its id, start and lease (committed before the I/O).
    static func claim(_ id: Int, attempt: UUID, now: Date, leaseUntil: Date, on connection: Connection) throws {
        try connection.queryPrepared("""
            SELECT job_claim($1::bigint, $2::uuid, to_timestamp($3::float8), to_timestamp($4::float8))
            """, [.int(id), .text(attempt.lowercasedText), .double(now.timeIntervalSince1970),
                  .double(leaseUntil.timeIntervalSince1970)])
    }

    /// Replaces the job's memo (what its kind fixed for the retries).
    static func remember(_ id: Int, memo: EventJSON, on connection: Connection) throws {
        try connection.queryPrepared("SELECT job_remember($1::bigint, $2::jsonb)",
                                     [.int(id), .text(memo.canonicalText)])
    }

    static func markDone(_ id: Int, outcome: String, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("SELECT job_mark_done($1::bigint, $2, to_timestamp($3::float8))",
                                     [.int(id), .text(outcome), .double(now.timeIntervalSince1970)])
    }

    /// Records a failed attempt: back to `pending` at `now + delay`, or `dead` when `delay` is nil.
    static func fail(_ id: Int, error: String, delay: Double?, now: Date, on connection: Connection) throws {
        let runAt = now.addingTimeInterval(delay ?? 0)
        try connection.queryPrepared("""
            SELECT job_fail($1::bigint, $2, $3::boolean, to_timestamp($4::float8), to_timestamp($5::float8))
            """, [.int(id), .text(String(error.prefix(1000))), .bool(delay == nil),
                  .double(runAt.timeIntervalSince1970), .double(now.timeIntervalSince1970)])
    }

    /// Enqueued jobs not checked since `before`, least recently checked first, locked (in-flight ones are skipped).
    static func lockUnchecked(before: Date, limit: Int, on connection: Connection) throws
        -> [(id: Int, kind: String, entry: String?)]
    {
        try connection.queryPrepared("""
            SELECT job_id, kind, stream_entry FROM job_lock_unchecked(to_timestamp($1::float8), $2::bigint)
            """, [.double(before.timeIntervalSince1970), .int(limit)]).rows
            .map { (try $0.int("job_id"), try $0.string("kind"), $0["stream_entry"]) }
    }

    /// Redis still holds the job's entry: remember when that was checked.
    static func touch(_ id: Int, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("SELECT job_touch($1::bigint, to_timestamp($2::float8))",
                                     [.int(id), .double(now.timeIntervalSince1970)])
    }

    /// Redis lost (or never got) the job's entry: back to `pending`, due now (the relay enqueues it again). Only a job
    /// still `enqueued` with exactly the stream entry `entry` (nil: none noted) moves; returns whether it did.
    ///
    /// The guard matters for the relay: after an `XADD` whose reply was lost, Redis may hold the entry and a worker
    /// may already have run the job (`done`) or rescheduled it; an unguarded update would make it `pending` and run it
    /// again.
    @discardableResult
    static func requeue(_ id: Int, entry: String?, now: Date, on connection: Connection) throws -> Bool {
        try connection.queryPrepared("""
            SELECT job_requeue($1::bigint, $3::text, to_timestamp($2::float8)) AS moved
            """, [.int(id), .double(now.timeIntervalSince1970), .optional(entry)]).rows[0].bool("moved")
    }
}
