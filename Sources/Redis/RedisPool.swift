import Foundation

/// A fixed-size pool of `RedisConnection`s shared by request and worker threads.
///
/// Lazy: connections open on first demand, so a service starts while Redis is down. A checked-out connection
/// that is broken (timeout, I/O error) is closed on checkin and replaced on a later checkout; an idle
/// connection the server closed (`CLIENT KILL`, restart) is noticed at checkout and replaced before use.
/// With Sentinel (`RedisConfiguration.sentinel`) connections go to the master the Sentinels name; when they name
/// another one, idle connections to the old master are replaced at checkout.
/// Blocking: call it from threads, never from `async` code.
public final class RedisPool: Sendable {
    private let configuration: RedisConfiguration
    private let shared: SharedState
    /// Set when `configuration.sentinel` is: the master is whatever the Sentinels name.
    private let locator: RedisMasterLocator?

    /// Creates the pool without connecting (nor asking any Sentinel).
    ///
    /// `configuration.poolSize` below 1 is treated as 1.
    public init(configuration: RedisConfiguration) {
        self.configuration = configuration
        self.shared = SharedState(size: max(1, configuration.poolSize))
        self.locator = configuration.sentinel.map {
            RedisMasterLocator(sentinel: $0, connectTimeout: configuration.connectTimeout,
                               commandTimeout: configuration.commandTimeout)
        }
    }

    /// Checks a connection out, runs `body` with it, and checks it back in (closing it if it broke).
    ///
    /// Do not keep the connection beyond `body`, and do not nest calls on the same pool (that waits for a
    /// second connection and can end in `.poolTimeout`).
    /// - Throws: `.poolTimeout` when no connection frees up within `checkoutTimeout`, `.connectFailed` when a
    ///   new connection cannot be opened, `.connectionLost` after `close()`, and whatever `body` throws.
    public func withConnection<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Runs one command on a pooled connection; error replies are returned as `.error` values.
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        try withConnection { try $0.command(arguments) }
    }

    /// Runs one binary-safe command on a pooled connection; error replies are returned as `.error` values.
    @discardableResult
    public func command(_ arguments: [[UInt8]]) throws -> RedisReply {
        try withConnection { try $0.command(arguments) }
    }

    /// Runs `script` with `EVALSHA` on a pooled connection, loading it once on `NOSCRIPT`.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) throws -> RedisReply {
        try withConnection { try $0.evaluate(script, keys: keys, arguments: arguments) }
    }

    /// The pool's counters right now.
    public var stats: RedisPoolStats {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        return RedisPoolStats(size: shared.size, open: shared.open, inUse: shared.inUse, waiting: shared.waiting)
    }

    /// Closes idle connections and refuses new checkouts; connections in use close when they are checked in.
    public func close() {
        shared.condition.lock()
        shared.closed = true
        let idle = shared.idle
        shared.idle.removeAll()
        shared.open -= idle.count
        shared.condition.broadcast()
        shared.condition.unlock()
        _ = idle  // Freed here, outside the lock.
    }

    private func checkOut() throws -> RedisConnection {
        let deadline = Date(timeIntervalSinceNow: configuration.checkoutTimeout)
        shared.condition.lock()
        var reused: RedisConnection?
        while true {
            if shared.closed {
                shared.condition.unlock()
                throw RedisError(.connectionLost, "the pool is closed")
            }
            if let connection = shared.idle.popLast() {
                reused = connection
                break
            }
            if shared.open < shared.size {
                shared.open += 1
                break
            }
            shared.waiting += 1
            let signalled = shared.condition.wait(until: deadline)
            shared.waiting -= 1
            if !signalled && Date() >= deadline {
                shared.condition.unlock()
                let seconds = configuration.checkoutTimeout
                throw RedisError(.poolTimeout, "no Redis connection became free within \(seconds) s")
            }
        }
        shared.inUse += 1
        shared.condition.unlock()

        // The slot is ours now; connect (or replace a connection the server closed) outside the lock.
        do {
            guard let locator else {
                if let reused, !reused.isStale { return reused }
                return try RedisConnection(configuration: configuration)
            }
            let master = try locator.master(.ifDue)
            if let reused, !reused.isStale, reused.masterEpoch == master.epoch { return reused }
            return try connectToMaster(master, locator: locator)
        } catch {
            releaseSlot()
            throw error
        }
    }

    /// Opens a connection to the master the Sentinels named and checks that it is one (`ROLE`): right after a
    /// failover the old master may still be reachable, as a replica or about to become one.
    private func connectToMaster(
        _ master: (address: RedisEndpoint.Address, epoch: Int), locator: RedisMasterLocator
    ) throws -> RedisConnection {
        let connection: RedisConnection
        do {
            connection = try RedisConnection(configuration: configuration, address: master.address)
        } catch {
            locator.markDue()
            throw error
        }
        let role = try connection.command(["ROLE"])
        guard role.elements?.first?.string == "master" else {
            locator.markDue()
            throw RedisError(.connectFailed, "\(master.address.display) is not the master (yet)")
        }
        connection.masterEpoch = master.epoch
        return connection
    }

    private func checkIn(_ connection: RedisConnection) {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        shared.inUse -= 1
        if connection.isBroken { locator?.markDue() }
        if connection.isBroken || shared.closed {
            shared.open -= 1
        } else {
            shared.idle.append(connection)
        }
        shared.condition.signal()
    }

    private func releaseSlot() {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        shared.inUse -= 1
        shared.open -= 1
        shared.condition.signal()
    }
}

/// The pool's mutable state; every access holds `condition`'s lock.
private final class SharedState: @unchecked Sendable {
    let condition = NSCondition()
    let size: Int
    var idle: [RedisConnection] = []
    var open = 0
    var inUse = 0
    var waiting = 0
    var closed = false

    init(size: Int) { self.size = size }
}
