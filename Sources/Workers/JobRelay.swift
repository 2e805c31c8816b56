import Foundation
import Postgres
import Redis

/// Moves due `pending` jobs into their queue's Redis Stream and marks them `enqueued`.
///
/// Per batch, in one Postgres transaction: lock due rows (`FOR UPDATE SKIP LOCKED`, so several relays share the
/// work), `XADD` each, mark it enqueued with its entry id, commit. A crash after an `XADD` but before the commit
/// leaves the row `pending` and an extra entry in the stream: the job is added again later, and whichever entry a
/// worker takes second finds the job no longer `enqueued` (or locked) and is dropped. So an entry is never missing
/// for an `enqueued` job except when Redis loses it, which the sweeper repairs.
public final class JobRelay: Sendable {
    private let pool: Pool
    private let redis: RedisPool
    private let registry: JobRegistry
    private let clock: @Sendable () -> Date
    private let batchSize: Int

    public init(pool: Pool, redis: RedisPool, registry: JobRegistry, clock: @escaping @Sendable () -> Date = { Date() },
                batchSize: Int = 100) {
        self.pool = pool
        self.redis = redis
        self.registry = registry
        self.clock = clock
        self.batchSize = batchSize
    }

    /// Relays one batch; returns how many jobs it enqueued (jobs of a kind this process does not know become `dead`).
    @discardableResult
    public func relayDue() throws -> Int {
        let now = clock()
        return try pool.transaction { connection in
            let due = try JobStore.lockDue(now: now, limit: batchSize, on: connection)
            guard !due.isEmpty else { return 0 }
            try redis.withConnection { stream in
                for job in due {
                    guard let kind = registry.kind(job.kind) else {
                        try JobStore.fail(job.id, error: "no job kind '\(job.kind)' in this build", delay: nil,
                                          now: now, on: connection)
                        continue
                    }
                    let entry = try JobStream.add(queue: kind.queue, jobId: job.id, on: stream)
                    try JobStore.markEnqueued(job.id, entry: entry, now: now, on: connection)
                }
            }
            return due.count
        }
    }
}
