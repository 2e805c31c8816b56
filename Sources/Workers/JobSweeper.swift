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

    /// Checks one batch; returns the jobs it put back to `pending`.
    @discardableResult
    public func sweep() throws -> Sweep {
        let now = clock()
        return try pool.transaction { connection in
            let candidates = try JobStore.lockUnchecked(before: now.addingTimeInterval(-checkAfter), limit: batchSize,
                                                        on: connection)
            var swept = Sweep()
            guard !candidates.isEmpty else { return swept }
            try redis.withConnection { stream in
                for job in candidates {
                    let queue = registry.kind(job.kind)?.queue
                    if let queue, let entry = job.entry,
                       try JobStream.contains(queue: queue, entry: entry, on: stream) {
                        try JobStore.touch(job.id, now: now, on: connection)
                    } else if try JobStore.requeue(job.id, entry: job.entry, now: now, on: connection) {
                        if job.entry == nil { swept.unnoted.append(job.id) } else { swept.lost.append(job.id) }
                    }
                }
            }
            return swept
        }
    }

    /// The jobs one `sweep()` put back to `pending`, by why their stream entry was missing.
    public struct Sweep: Equatable, Sendable {
        /// Jobs whose entry id was noted on the row but the stream no longer held: Redis lost the entry (a restart
        /// without its data, a failover before the entry reached the replica, a trim).
        public var lost: [Int] = []
        /// Jobs with no entry id noted: the relay stopped between its commit and noting the `XADD` (crashed, or Redis
        /// failed), so whether Redis ever held an entry is unknown.
        public var unnoted: [Int] = []

        /// How many jobs went back to `pending`.
        public var count: Int { lost.count + unnoted.count }
    }
}
