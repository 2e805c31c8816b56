import Domain
import Foundation
import Redis

/// The per-project daily quota of stored batches (`reason: "quota"` once spent): a counter per project and UTC day in
/// Redis, kept two days. Without Redis the batch is stored (fail open: a quota protects storage, not a secret).
struct IngestQuota: Sendable {
    /// Stored batches per project and UTC day.
    let dailyBatches: Int

    /// Counts one batch of `project` on `now`'s day; false when the day's quota was already spent.
    func take(project: ProjectID, now: Date, redis: RedisPool) -> Bool {
        let day = Int((now.timeIntervalSince1970 / 86400).rounded(.down))
        let key = "ingest-quota:\(project):\(day)"
        guard case .integer(let count) = try? redis.evaluate(Self.script, keys: [key], arguments: ["172800"]) else {
            return true
        }
        return count <= dailyBatches
    }

    /// INCR, and the key's lifetime on its first count.
    static let script = RedisScript(source: """
        local count = redis.call('INCR', KEYS[1])
        if count == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
        return count
        """)
}
