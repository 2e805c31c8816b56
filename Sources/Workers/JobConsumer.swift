import Crypto
import EventStore
import Foundation
import Postgres
import Redis
import Synchronization

/// A worker of one queue: reads entries through the consumer group, runs each job, records the outcome, then acks.
///
/// Per job (docs/jobs.md, "One job, in a worker"): the **claim** transaction locks the row (`FOR UPDATE SKIP
/// LOCKED`), checks it is still `enqueued` and no other worker's lease is running, moves into the job's org scope and
/// runs the kind's `perform`. A `.done` plan marks the job done there. An `.effect` plan claims the attempt (a fresh
/// attempt id, a lease of the effect's timeout plus `visibilityTimeout` seconds) and commits; the effect's I/O runs
/// with no transaction open; the **outcome** transaction locks the row again and — only if the job still carries
/// this attempt id — records the verdict (done, or the next rung of the ladder) with the events the kind appends.
/// Then `XACK` + `XDEL`.
/// A failed claim phase is rolled back and recorded in a second transaction (retry ladder or `dead`).
/// An entry whose job is locked by another worker, or whose lease is running, stays unacknowledged and is reclaimed
/// later; one whose job is no longer `enqueued` (done, rescheduled, a duplicate entry) or whose attempt was
/// superseded is acknowledged and dropped. Entries a crashed worker held are taken over with `XAUTOCLAIM` once idle
/// for `visibilityTimeout` seconds; the job is claimed again once its lease passed.
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
            (result, job, failure) = try attempt(jobId)
        } catch {
            failure = Self.describe(error)
            (result, job) = try recordFailure(jobId, error: error, attemptId: nil)
        }
        if result != .busy { try finish(entry) }
        onResult(job, result, failure)
        return result
    }

    /// What the claim transaction left.
    private enum Claim {
        case busy(Job?), dropped(Job), finished(Job)
        case effect(Job, JobEffect, UUID)
    }

    /// The claim phase, then (for an effect) the I/O and the outcome phase.
    private func attempt(_ jobId: Int) throws -> (Result, Job?, String?) {
        let claim = try store.pool.transaction { connection -> Claim in
            guard let locked = try Self.lock(jobId, on: connection) else { return .busy(nil) }
            guard locked.state == .enqueued else { return .dropped(locked) }
            let now = clock()
            // Another worker's attempt is in progress (its I/O runs with no row lock held).
            if let lease = locked.leaseUntil, lease > now { return .busy(locked) }
            guard let kind = registry.kind(locked.kind) else {
                throw JobFailure("no job kind '\(locked.kind)' in this build", permanent: true)
            }
            let attemptId = SecureRandom.uuid()
            let transaction = EventTransaction(connection: connection, projections: store.projections)
            // The job's own reads and writes see its org's rows only (row-level security); a job of no org
            // (a probe) sees none.
            if let org = locked.orgId { try transaction.enter(.org(org)) }
            let run = JobRun(job: locked, transaction: transaction, now: now, attemptId: attemptId,
                             visibilityTimeout: visibilityTimeout)
            switch try kind.perform(run) {
            case .done(let outcome):
                try JobStore.markDone(jobId, outcome: outcome, now: now, on: connection)
                return .finished(locked)
            case .effect(let effect):
                let lease = run.leaseUntil(effectTimeout: effect.timeout)
                try JobStore.claim(jobId, attempt: attemptId, now: now, leaseUntil: lease, on: connection)
                return .effect(locked, effect, attemptId)
            }
        }
        switch claim {
        case .busy(let job): return (.busy, job, nil)
        case .dropped(let job): return (.dropped, job, nil)
        case .finished(let job): return (.done, job, nil)
        case .effect(_, let effect, let attemptId):
            let record = effect.run()
            return try recordOutcome(jobId, attemptId: attemptId, record: record)
        }
    }

    /// The outcome phase, tried twice (a connection lost between the phases); when it still fails, the attempt
    /// fails on the ladder. Applies only while the job still carries `attemptId`.
    private func recordOutcome(_ jobId: Int, attemptId: UUID, record: @Sendable (JobRecording) throws -> JobVerdict)
        throws -> (Result, Job?, String?)
    {
        func outcome() throws -> (Result, Job?, String?) {
            try store.pool.transaction { connection -> (Result, Job?, String?) in
                guard let job = try JobStore.lockForOutcome(jobId, on: connection) else {
                    return (.dropped, nil, nil)
                }
                // Superseded: the lease passed and another worker claimed the job, or it finished meanwhile.
                guard job.state == .enqueued, job.attemptId == attemptId else { return (.dropped, job, nil) }
                let now = clock()
                let transaction = EventTransaction(connection: connection, projections: store.projections)
                if let org = job.orgId { try transaction.enter(.org(org)) }
                switch try record(JobRecording(job: job, transaction: transaction, now: now, attemptId: attemptId)) {
                case .done(let outcome):
                    try JobStore.markDone(jobId, outcome: outcome, now: now, on: connection)
                    return (.done, job, nil)
                case .failed(let failure):
                    let delay = failure.permanent
                        ? nil : registry.kind(job.kind)?.delay(afterFailedAttempts: job.attempt + 1)
                    try JobStore.fail(jobId, error: failure.reason, delay: delay, now: now, on: connection)
                    return (delay == nil ? .dead : .failed, job, failure.reason)
                }
            }
        }
        do {
            return try outcome()
        } catch {
            if let second = try? outcome() { return second }
            let (result, job) = try recordFailure(jobId, error: error, attemptId: attemptId)
            return (result, job, Self.describe(error))
        }
    }

    /// Rolls the failed attempt into the job row: the next rung of the ladder, or `dead`. With `attemptId`, only
    /// while the job still carries it.
    private func recordFailure(_ jobId: Int, error: any Error, attemptId: UUID?) throws -> (Result, Job?) {
        try store.pool.transaction { connection -> (Result, Job?) in
            guard let job = try Self.lock(jobId, on: connection) else { return (.busy, nil) }
            guard job.state == .enqueued, attemptId == nil || job.attemptId == attemptId else {
                return (.dropped, job)
            }
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
