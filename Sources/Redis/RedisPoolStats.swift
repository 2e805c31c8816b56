/// A snapshot of a `RedisPool`'s counters.
public struct RedisPoolStats: Sendable, Equatable {
    /// The most connections the pool opens.
    public var size: Int
    /// Connections open now (idle, checked out, or being opened).
    public var open: Int
    /// Connections checked out now.
    public var inUse: Int
    /// Callers blocked in checkout waiting for a free connection.
    public var waiting: Int

    /// Creates a snapshot.
    public init(size: Int, open: Int, inUse: Int, waiting: Int) {
        self.size = size
        self.open = open
        self.inUse = inUse
        self.waiting = waiting
    }
}
