import EventStore
import Foundation
import Postgres

/// The SQL of the `jobs` table; every function runs on the caller's connection (and transaction).
public enum JobStore {
    /// Inserts `job` unless one with its dedupe key exists; returns the new id, or nil for a duplicate.
    @discardableResult
    public static func insert(_ job: NewJob, now: Date, on connection: Connection) throws -> Int? {
        try connection.queryPrepared("""
            INSERT INTO jobs (kind, org_id, payload, dedupe_key, run_at, created_at, updated_at)
            VALUES ($1, $2::uuid, $3::jsonb, $4, to_timestamp($5::float8), to_timestamp($6::float8),
                    to_timestamp($6::float8))
            ON CONFLICT (dedupe_key) DO NOTHING
            RETURNING job_id
            """, [.text(job.kind), .optional(job.orgId?.uuidString.lowercased()), .text(job.payload.canonicalText),
                  .text(job.dedupeKey), .double((job.runAt ?? now).timeIntervalSince1970),
                  .double(now.timeIntervalSince1970)]).first.map { try $0.int("job_id") }
    }

    /// One job, or nil.
    public static func find(_ id: Int, on connection: Connection) throws -> Job? {
        try connection.queryPrepared("SELECT \(Job.columns) FROM jobs WHERE job_id = $1::bigint", [.int(id)])
            .first.map(Job.init(row:))
    }

    /// Jobs newest first, filtered by state and org, at most `limit`.
    public static func list(state: Job.State?, org: UUID?, limit: Int, on connection: Connection) throws -> [Job] {
        try connection.query("""
            SELECT \(Job.columns) FROM jobs
            WHERE ($1::text IS NULL OR state = $1) AND ($2::uuid IS NULL OR org_id = $2::uuid)
            ORDER BY job_id DESC LIMIT $3::bigint
            """, [.optional(state?.rawValue), .optional(org?.uuidString.lowercased()), .int(limit)])
            .rows.map(Job.init(row:))
    }

    /// Counts of jobs by state (every state present, zero when none).
    public static func counts(on connection: Connection) throws -> [Job.State: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Job.State.allCases.map { ($0, 0) })
        for row in try connection.query("SELECT state, count(*)::bigint AS n FROM jobs GROUP BY state").rows {
            if let state = Job.State(rawValue: try row.string("state")) { counts[state] = try row.int("n") }
        }
        return counts
    }

    /// A dead job back to `pending` now with its attempts reset (`retries` + 1); nil when it is not dead.
    public static func retry(_ id: Int, now: Date, on connection: Connection) throws -> Job? {
        try connection.query("""
            UPDATE jobs SET state = 'pending', attempt = 0, run_at = to_timestamp($2::float8), finished_at = NULL,
                            retries = retries + 1, stream_entry = NULL, updated_at = to_timestamp($2::float8)
            WHERE job_id = $1::bigint AND state = 'dead'
            RETURNING \(Job.columns)
            """, [.int(id), .double(now.timeIntervalSince1970)]).first.map(Job.init(row:))
    }

    // MARK: - Relay, workers, sweeper

    /// Due pending jobs, oldest `run_at` first, locked for this transaction (others skip them).
    static func lockDue(now: Date, limit: Int, on connection: Connection) throws -> [(id: Int, kind: String)] {
        try connection.queryPrepared("""
            SELECT job_id, kind FROM jobs WHERE state = 'pending' AND run_at <= to_timestamp($1::float8)
            ORDER BY run_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
            """, [.double(now.timeIntervalSince1970), .int(limit)]).rows
            .map { (try $0.int("job_id"), try $0.string("kind")) }
    }

    static func markEnqueued(_ id: Int, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("""
            UPDATE jobs SET state = 'enqueued', stream_entry = NULL, enqueued_at = to_timestamp($2::float8),
                            updated_at = to_timestamp($2::float8)
            WHERE job_id = $1::bigint
            """, [.int(id), .double(now.timeIntervalSince1970)])
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
        try connection.queryPrepared("""
            UPDATE jobs SET stream_entry = e.entry
            FROM unnest($1::bigint[], $2::text[]) AS e(job_id, entry)
            WHERE jobs.job_id = e.job_id AND jobs.job_id IN (
                SELECT job_id FROM jobs
                WHERE job_id = ANY($1::bigint[]) AND state = 'enqueued' AND stream_entry IS NULL
                FOR UPDATE SKIP LOCKED)
            """, [.text(ids), .text(entryIds)])
    }

    /// The job, locked for this transaction; nil when it does not exist or another transaction holds it.
    static func lockForRun(_ id: Int, on connection: Connection) throws -> Job? {
        try connection.queryPrepared("SELECT \(Job.columns) FROM jobs WHERE job_id = $1::bigint FOR UPDATE SKIP LOCKED",
                                     [.int(id)]).first.map(Job.init(row:))
    }

    static func markDone(_ id: Int, outcome: String, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("""
            UPDATE jobs SET state = 'done', outcome = $2, finished_at = to_timestamp($3::float8),
                            updated_at = to_timestamp($3::float8)
            WHERE job_id = $1::bigint
            """, [.int(id), .text(outcome), .double(now.timeIntervalSince1970)])
    }

    /// Records a failed attempt: back to `pending` at `now + delay`, or `dead` when `delay` is nil.
    static func fail(_ id: Int, error: String, delay: Double?, now: Date, on connection: Connection) throws {
        let runAt = now.addingTimeInterval(delay ?? 0)
        try connection.queryPrepared("""
            UPDATE jobs SET attempt = attempt + 1, last_error = $2, state = $3, run_at = to_timestamp($4::float8),
                            stream_entry = NULL, updated_at = to_timestamp($5::float8),
                            finished_at = CASE WHEN $3 = 'dead' THEN to_timestamp($5::float8) END
            WHERE job_id = $1::bigint
            """, [.int(id), .text(String(error.prefix(1000))), .text(delay == nil ? "dead" : "pending"),
                  .double(runAt.timeIntervalSince1970), .double(now.timeIntervalSince1970)])
    }

    /// Enqueued jobs not checked since `before`, least recently checked first, locked (in-flight ones are skipped).
    static func lockUnchecked(before: Date, limit: Int, on connection: Connection) throws
        -> [(id: Int, kind: String, entry: String?)]
    {
        try connection.queryPrepared("""
            SELECT job_id, kind, stream_entry FROM jobs
            WHERE state = 'enqueued' AND updated_at < to_timestamp($1::float8)
            ORDER BY updated_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED
            """, [.double(before.timeIntervalSince1970), .int(limit)]).rows
            .map { (try $0.int("job_id"), try $0.string("kind"), $0["stream_entry"]) }
    }

    /// Redis still holds the job's entry: remember when that was checked.
    static func touch(_ id: Int, now: Date, on connection: Connection) throws {
        try connection.queryPrepared("UPDATE jobs SET updated_at = to_timestamp($2::float8) WHERE job_id = $1::bigint",
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
            UPDATE jobs SET state = 'pending', stream_entry = NULL, run_at = to_timestamp($2::float8),
                            updated_at = to_timestamp($2::float8)
            WHERE job_id = $1::bigint AND state = 'enqueued' AND stream_entry IS NOT DISTINCT FROM $3::text
            RETURNING job_id
            """, [.int(id), .double(now.timeIntervalSince1970), .optional(entry)]).first != nil
    }
}
