import EventStore
import Foundation
import Postgres
import Redis
import Synchronization

/// A worker of one queue: reads entries through the consumer group, runs each job, records the outcome, then acks.
///
/// Per job, in one Postgres transaction: lock the row (`FOR UPDATE SKIP LOCKED`), check it is still `enqueued`, move
/// the transaction into the job's org scope, run the kind's `perform` (which appends its outcome event in the same
/// transaction), mark the job `done`, commit; then
/// `XACK` + `XDEL`. A failed attempt is rolled back and recorded in a second transaction (retry ladder or `dead`).
/// An entry whose job is locked by another worker stays unacknowledged and is reclaimed later; one whose job is no
/// longer `enqueued` (done, rescheduled, a duplicate entry) is acknowledged and dropped. Entries a crashed worker held
/// are taken over with `XAUTOCLAIM` once idle for `visibilityTimeout` seconds.
///
/// Use one consumer per thread (`step` keeps per-thread state).
public final class JobConsumer: @unchecked Sendable {
    /// What became of one entry.
    public enum Result: Sendable, Equatable {
        case done, failed, dead, dropped, busy
    }

    public let queue: String
    /// The consumer's name in the group, unique per thread and process.
    public let name: String
    private let store: EventLog
    private let redis: RedisPool
    private let registry: JobRegistry
    private let clock: @Sendable () -> Date
    private let visibilityTimeout: Double
    private let blockMilliseconds: Int
    private let batchSize: Int
    private let onResult: @Sendable (Job?, Result, String?) -> Void
    private var lastReclaim = Date.distantPast
    /// Where this consumer's next `XAUTOCLAIM` scan of the pending list starts.
    private var reclaimCursor = "0-0"

    public init(queue: String, name: String, store: EventLog, redis: RedisPool, registry: JobRegistry,
                visibilityTimeout: Double, clock: @escaping @Sendable () -> Date = { Date() },
                blockMilliseconds: Int = 1000, batchSize: Int = 10,
                onResult: @escaping @Sendable (Job?, Result, String?) -> Void = { _, _, _ in }) {
        self.queue = queue
        self.name = name
        self.store = store
        self.redis = redis
        self.registry = registry
        self.clock = clock
        self.visibilityTimeout = visibilityTimeout
        self.blockMilliseconds = blockMilliseconds
        self.batchSize = batchSize
        self.onResult = onResult
    }

    /// Reclaims stale entries (at most every `visibilityTimeout / 2` seconds) or reads new ones, and runs them one
    /// after another while `continuing()` holds; returns how many entries it handled (0 after waiting
    /// `blockMilliseconds` for none). Entries left when `continuing()` turns false stay unacknowledged in this
    /// consumer's pending list: another consumer reclaims them after the visibility timeout (a stopping worker).
    @discardableResult
    public func step(continuing: () -> Bool = { true }) throws -> Int {
        var entries: [JobStream.Entry] = []
        let wallNow = Date()
        if wallNow.timeIntervalSince(lastReclaim) >= visibilityTimeout / 2 {
            lastReclaim = wallNow
            let cursor = reclaimCursor
            let reclaimed = try redis.withConnection {
                try JobStream.reclaim(queue: queue, consumer: name, minIdleMilliseconds: Int(visibilityTimeout * 1000),
                                      count: batchSize, cursor: cursor, on: $0)
            }
            reclaimCursor = reclaimed.next
            entries = reclaimed.entries
        }
        if entries.isEmpty {
            entries = try redis.withConnection {
                try JobStream.read(queue: queue, consumer: name, count: batchSize, blockMilliseconds: blockMilliseconds,
                                   on: $0)
            }
        }
        var handled = 0
        for entry in entries {
            guard handled == 0 || continuing() else { break }
            try handle(entry)
            handled += 1
        }
        return handled
    }

    /// Runs the job of one entry and acknowledges the entry unless another worker holds the job.
    @discardableResult
    public func handle(_ entry: JobStream.Entry) throws -> Result {
        guard let jobId = entry.jobId else {
            try finish(entry)
            return .dropped
        }
        let result: Result
        var job: Job?
        var failure: String?
        do {
            (result, job) = try store.pool.transaction { connection -> (Result, Job?) in
                guard let locked = try Self.lock(jobId, on: connection) else { return (.busy, nil) }
                guard locked.state == .enqueued else { return (.dropped, locked) }
                guard let kind = registry.kind(locked.kind) else {
                    throw JobFailure("no job kind '\(locked.kind)' in this build", permanent: true)
                }
                let now = clock()
                let transaction = EventTransaction(connection: connection, projections: store.projections)
                // The job's own reads and writes see its org's rows only (row-level security); a job of no org
                // (a probe) sees none.
                if let org = locked.orgId { try transaction.enter(.org(org)) }
                let outcome = try kind.perform(JobRun(job: locked, transaction: transaction, now: now))
                try JobStore.markDone(jobId, outcome: outcome, now: now, on: connection)
                return (.done, locked)
            }
        } catch {
            failure = Self.describe(error)
            (result, job) = try recordFailure(jobId, error: error)
        }
        if result != .busy { try finish(entry) }
        onResult(job, result, failure)
        return result
    }

    /// Rolls the failed attempt into the job row: the next rung of the ladder, or `dead`.
    private func recordFailure(_ jobId: Int, error: any Error) throws -> (Result, Job?) {
        try store.pool.transaction { connection -> (Result, Job?) in
            guard let job = try Self.lock(jobId, on: connection) else { return (.busy, nil) }
            guard job.state == .enqueued else { return (.dropped, job) }
            let permanent = (error as? JobFailure)?.permanent ?? false
            let delay = permanent ? nil : registry.kind(job.kind)?.delay(afterFailedAttempts: job.attempt + 1)
            try JobStore.fail(jobId, error: Self.describe(error), delay: delay, now: clock(), on: connection)
            return (delay == nil ? .dead : .failed, job)
        }
    }

    /// The job row, locked; nil when another transaction keeps it locked for more than ~100 ms (another worker runs
    /// it). A lock held for a moment — the relay noting entry ids right after its `XADD` — is waited out, so a fresh
    /// entry is not left for the visibility timeout.
    static func lock(_ jobId: Int, on connection: Connection) throws -> Job? {
        for attempt in 0..<10 {
            if let job = try JobStore.lockForRun(jobId, on: connection) { return job }
            if attempt < 9 { usleep(10_000) }
        }
        return nil
    }

    private func finish(_ entry: JobStream.Entry) throws {
        try redis.withConnection { try JobStream.finish(queue: queue, entry: entry.id, on: $0) }
    }

    /// The error as stored in `last_error`: never personal data (handlers throw `JobFailure` with safe text; other
    /// errors are typed client errors whose descriptions carry no addresses or codes).
    static func describe(_ error: any Error) -> String {
        if let failure = error as? JobFailure { return failure.reason }
        return String(describing: error)
    }
}
