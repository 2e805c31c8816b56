import Commands
import Redis

/// `ReadRouting`'s writer positions in Redis (`handoff:written:<key prefix>`, expiring), shared by every instance.
public struct RedisWritePositions: WritePositions {
    private let redis: RedisPool

    public init(redis: RedisPool) { self.redis = redis }

    public func remember(_ position: String, of writer: String, seconds: Int) throws {
        try redis.command(["SET", Self.key(writer), position, "EX", String(seconds)]).checked()
    }

    public func position(of writer: String) throws -> String? {
        let reply = try redis.command(["GET", Self.key(writer)]).checked()
        guard case .bulk = reply else { return nil }
        return reply.string
    }

    private static func key(_ writer: String) -> String { "handoff:written:" + writer }
}
