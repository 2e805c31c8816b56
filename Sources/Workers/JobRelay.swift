import Foundation
import Postgres
import Redis

/// Moves due `pending` jobs into their queue's Redis Stream and marks them `enqueued`.
///
/// Per batch: (1) in one Postgres transaction, lock due rows (`FOR UPDATE SKIP LOCKED`, so several relays share the
/// work), mark them `enqueued`, commit; (2) `XADD` each to its stream; (3) note each entry id on its row. The commit
/// comes before the `XADD`, so a worker never reads an entry whose row is still locked or `pending`. A crash (or a
/// Redis failure) between (1) and (2) leaves `enqueued` rows without an entry: the relay puts the rows it could not
/// add back to `pending` at once when it can, and otherwise the sweeper finds them (no entry id, or an entry Redis
/// does not hold) after `JOB_VISIBILITY_TIMEOUT_SECONDS`. A crash between (2) and (3) may add a job twice later;
/// whichever entry a worker takes second finds the job no longer `enqueued` and is dropped.
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
        let claimed = try pool.transaction { connection -> [(id: Int, queue: String)] in
            var claimed: [(id: Int, queue: String)] = []
            for job in try JobStore.lockDue(now: now, limit: batchSize, on: connection) {
                guard let kind = registry.kind(job.kind) else {
                    try JobStore.fail(job.id, error: "no job kind '\(job.kind)' in this build", delay: nil,
                                      now: now, on: connection)
                    continue
                }
                try JobStore.markEnqueued(job.id, now: now, on: connection)
                claimed.append((job.id, kind.queue))
            }
            return claimed
        }
        guard !claimed.isEmpty else { return 0 }
        var added: [(id: Int, entry: String)] = []
        do {
            try redis.withConnection { stream in
                for job in claimed {
                    added.append((job.id, try JobStream.add(queue: job.queue, jobId: job.id, on: stream)))
                }
            }
        } catch {
            let missing = claimed.dropFirst(added.count).map(\.id)
            _ = try? pool.withConnection { connection in
                for id in missing { try JobStore.requeue(id, entry: nil, now: now, on: connection) }
            }
            try? noteEntries(added)
            throw error
        }
        try noteEntries(added)
        return claimed.count
    }

    /// Records each job's stream entry, for the sweeper (only while the job is still `enqueued` without one).
    private func noteEntries(_ entries: [(id: Int, entry: String)]) throws {
        guard !entries.isEmpty else { return }
        try pool.withConnection { try JobStore.noteEntries(entries, on: $0) }
    }
}
