/// A snapshot of a pool's connections.
public struct PoolStats: Sendable, Equatable {
    /// The most connections the pool opens (`poolSize`).
    public let size: Int
    /// Connections open or being opened right now, idle or checked out.
    public let open: Int
    /// Connections checked out by callers.
    public let inUse: Int
    /// Callers waiting for a connection.
    public let waiting: Int

    /// Creates a snapshot.
    public init(size: Int, open: Int, inUse: Int, waiting: Int) {
        self.size = size
        self.open = open
        self.inUse = inUse
        self.waiting = waiting
    }
}
