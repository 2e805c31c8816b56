import Foundation
import Postgres
import Redis

/// Finds `enqueued` jobs whose stream entry Redis no longer holds (Redis restarted empty, or an entry was trimmed)
/// and puts them back to `pending`, so the relay enqueues them again: Redis holds no truth.
///
/// A job is checked once it has been enqueued (or last checked) more than `checkAfter` seconds ago; jobs a worker is
/// running are locked and skipped. An entry still in the stream means the job is waiting or in a worker's pending
/// list (reclaimed by `XAUTOCLAIM`), so it only gets its check time renewed.
public final class JobSweeper: Sendable {
    private let pool: Pool
    private let redis: RedisPool
    private let registry: JobRegistry
    private let clock: @Sendable () -> Date
    private let checkAfter: Double
    private let batchSize: Int

    public init(pool: Pool, redis: RedisPool, registry: JobRegistry, checkAfter: Double,
                clock: @escaping @Sendable () -> Date = { Date() }, batchSize: Int = 200) {
        self.pool = pool
        self.redis = redis
        self.registry = registry
        self.clock = clock
        self.checkAfter = checkAfter
        self.batchSize = batchSize
    }

    /// Checks one batch; returns how many jobs were put back to `pending`.
    @discardableResult
    public func sweep() throws -> Int {
        let now = clock()
        return try pool.transaction { connection in
            let candidates = try JobStore.lockUnchecked(before: now.addingTimeInterval(-checkAfter), limit: batchSize,
                                                        on: connection)
            guard !candidates.isEmpty else { return 0 }
            var requeued = 0
            try redis.withConnection { stream in
                for job in candidates {
                    let queue = registry.kind(job.kind)?.queue
                    if let queue, let entry = job.entry,
                       try JobStream.contains(queue: queue, entry: entry, on: stream) {
                        try JobStore.touch(job.id, now: now, on: connection)
                    } else {
                        try JobStore.requeue(job.id, entry: job.entry, now: now, on: connection)
                        requeued += 1
                    }
                }
            }
            return requeued
        }
    }
}
