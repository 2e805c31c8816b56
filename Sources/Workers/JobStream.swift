import Redis

/// The Redis Streams that carry enqueued jobs to workers: one stream per queue (`handoff:jobs:<queue>`), one consumer
/// group (`workers`). Entries hold only `job=<id>`; the job itself lives in Postgres.
///
/// Processed entries are acknowledged and deleted, so an entry still in the stream is a job not yet done: the
/// sweeper uses that to find jobs Redis lost.
public enum JobStream {
    /// The consumer group every worker joins.
    public static let group = "workers"

    /// The stream key of `queue`.
    public static func key(_ queue: String) -> String { "handoff:jobs:\(queue)" }

    /// One stream entry: its id and the job it carries (nil when the entry is malformed).
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var jobId: Int?
    }

    /// `XADD`: appends an entry for `jobId`; returns the entry id.
    static func add(queue: String, jobId: Int, on redis: RedisConnection) throws -> String {
        let reply = try redis.command(["XADD", key(queue), "*", "job", String(jobId)]).checked()
        guard let id = reply.string else { throw RedisError(.protocolError, "XADD answered no id") }
        return id
    }

    /// Creates the group (reading from the start) and the stream if missing; an existing group is fine.
    static func ensureGroup(queue: String, on redis: RedisConnection) throws {
        let reply = try redis.command(["XGROUP", "CREATE", key(queue), group, "0", "MKSTREAM"])
        if case .error(let message) = reply, !message.hasPrefix("BUSYGROUP") { try reply.checked() }
    }

    /// `XREADGROUP … >`: up to `count` new entries for `consumer`, waiting up to `blockMilliseconds`. Recreates the
    /// group when Redis lost it (restarted empty).
    static func read(queue: String, consumer: String, count: Int, blockMilliseconds: Int,
                     on redis: RedisConnection) throws -> [Entry] {
        let command = ["XREADGROUP", "GROUP", group, consumer, "COUNT", String(count), "BLOCK",
                       String(blockMilliseconds), "STREAMS", key(queue), ">"]
        var reply = try redis.command(command)
        if case .error(let message) = reply, message.hasPrefix("NOGROUP") {
            try ensureGroup(queue: queue, on: redis)
            reply = try redis.command(command)
        }
        try reply.checked()
        guard let streams = reply.elements, let first = streams.first?.elements, first.count == 2,
              let entries = first[1].elements else { return [] }
        return entries.compactMap(entry)
    }

    /// `XAUTOCLAIM` from `cursor`: takes over up to `count` entries another consumer has held longer than
    /// `minIdleMilliseconds` (it crashed, or is stuck); returns them and the cursor to go on from next time (`0-0`
    /// once the whole pending list was scanned), so a long pending list is walked, not only its head. Entries
    /// deleted meanwhile are dropped from the pending list by Redis.
    static func reclaim(queue: String, consumer: String, minIdleMilliseconds: Int, count: Int, cursor: String,
                        on redis: RedisConnection) throws -> (next: String, entries: [Entry]) {
        let reply = try redis.command(["XAUTOCLAIM", key(queue), group, consumer, String(minIdleMilliseconds), cursor,
                                       "COUNT", String(count)])
        if case .error(let message) = reply, message.hasPrefix("NOGROUP") {
            try ensureGroup(queue: queue, on: redis)
            return ("0-0", [])
        }
        try reply.checked()
        guard let parts = reply.elements, parts.count >= 2, let entries = parts[1].elements else { return ("0-0", []) }
        return (parts[0].string ?? "0-0", entries.compactMap(entry))
    }

    /// `XACK` + `XDEL`: the entry is done with (the job is done, failed, or no longer enqueued).
    static func finish(queue: String, entry: String, on redis: RedisConnection) throws {
        try redis.command(["XACK", key(queue), group, entry]).checked()
        try redis.command(["XDEL", key(queue), entry]).checked()
    }

    /// Whether the stream still holds `entry` (delivered or not).
    static func contains(queue: String, entry: String, on redis: RedisConnection) throws -> Bool {
        let reply = try redis.command(["XRANGE", key(queue), entry, entry]).checked()
        return !(reply.elements ?? []).isEmpty
    }

    private static func entry(_ reply: RedisReply) -> Entry? {
        guard let parts = reply.elements, parts.count == 2, let id = parts[0].string else { return nil }
        let fields = parts[1].elements ?? []
        var jobId: Int?
        var index = 0
        while index + 1 < fields.count {
            if fields[index].string == "job" { jobId = fields[index + 1].string.flatMap { Int($0) } }
            index += 2
        }
        return Entry(id: id, jobId: jobId)
    }
}
