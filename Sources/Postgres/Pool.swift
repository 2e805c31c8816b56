import Dispatch
import Foundation
import Synchronization

/// A fixed-size pool of connections, opened lazily, handed out one caller at a time in arrival order.
///
/// Creating a pool connects to nothing, so a service starts while Postgres is down; the first checkout
/// connects. Broken connections are closed and replaced, never handed out again; so is an idle connection the
/// server dropped (terminated, restarted, failed over), noticed before it is lent. A connection that finds itself
/// on a read-only server (`.readOnlyServer`) counts as broken. A connection returned inside a transaction is
/// rolled back first.
public final class Pool: Sendable {
    /// A caller parked until a connection (or a free slot to open one) is handed to it.
    private final class Waiter: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        /// Set under the pool's lock, read by the waiter after the semaphore fires (or under the lock).
        var grant: Grant?
    }

    private enum Grant {
        case connection(Connection)
        case openSlot
        case closed
    }

    private struct State {
        var idle: [Connection] = []
        /// Connections open or being opened, idle or checked out.
        var open = 0
        var inUse = 0
        var waiters: [Waiter] = []
        var isClosed = false
    }

    private let configuration: PostgresConfiguration
    private let size: Int
    private let state = Mutex(State())

    /// Creates a pool over `configuration.url`; nothing connects until the first checkout.
    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
        self.size = max(1, configuration.poolSize)
    }

    deinit { close() }

    /// Lends `body` a connection for its duration and takes it back afterwards, also when `body` throws.
    ///
    /// Waits up to `checkoutTimeout` seconds for a free connection (`.poolTimeout` after that); opening a
    /// new one can throw `.connectFailed`. Do not keep the connection beyond `body`, and do not check out a
    /// second connection from the same pool inside `body` (that can deadlock a full pool).
    @discardableResult
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Runs `body` inside `BEGIN … COMMIT` on one connection; rolls back and rethrows when `body` throws.
    ///
    /// `isolation` nil keeps the server's default (`default_transaction_isolation`, normally read committed).
    /// BEGIN and `opening` (e.g. a transaction-local `set_config`) are not sent on their own: they go in front of
    /// `body`'s first statement, in its round trip (`Connection.sendWithNext`), so their failure is that
    /// statement's. A `body` that sends nothing opens no transaction (nothing to commit or roll back).
    /// A `.serializationFailure` or `.deadlockDetected` (from `body` or from COMMIT) means the whole
    /// transaction may be retried. If `body` swallowed a statement error, COMMIT cannot succeed: the
    /// transaction is rolled back and this throws `.other`.
    @discardableResult
    public func transaction<T>(
        isolation: IsolationLevel? = nil, opening: Statement? = nil, _ body: (Connection) throws -> T
    ) throws -> T {
        try withConnection { connection in
            let begin = isolation.map { "BEGIN ISOLATION LEVEL \($0.sql)" } ?? "BEGIN"
            connection.sendWithNext([Statement(begin)] + (opening.map { [$0] } ?? []))
            let opened = connection.mark
            let value: T
            do {
                value = try body(connection)
                if !connection.hasSentOrQueued(since: opened) {
                    // The body sent and queued nothing: no transaction was opened.
                    connection.dropUnsentStatements()
                    return value
                }
                try connection.sendQueued()
            } catch {
                let sentSomething = connection.hasSent(since: opened)
                connection.dropUnsentStatements()
                if sentSomething && !connection.isBroken { try? connection.execute("ROLLBACK") }
                throw error
            }
            if connection.isInFailedTransaction {
                try? connection.execute("ROLLBACK")
                throw PostgresError(kind: .other, message: "the transaction failed earlier and was rolled back")
            }
            try connection.execute("COMMIT")
            return value
        }
    }

    /// A snapshot of how many connections are open, checked out, and awaited.
    public var stats: PoolStats {
        state.withLock { state in
            PoolStats(size: size, open: state.open, inUse: state.inUse, waiting: state.waiters.count)
        }
    }

    /// Closes idle connections now and the others when they come back; waiting and later checkouts fail.
    public func close() {
        let (idle, waiters) = state.withLock { state -> ([Connection], [Waiter]) in
            state.isClosed = true
            let idle = state.idle
            let waiters = state.waiters
            state.idle = []
            state.open -= idle.count
            state.waiters = []
            for waiter in waiters { waiter.grant = .closed }
            return (idle, waiters)
        }
        idle.forEach { $0.close() }
        waiters.forEach { $0.semaphore.signal() }
    }

    // MARK: - Checkout

    private enum Decision {
        case use(Connection)
        case open
        case wait(Waiter)
        case closed
    }

    private func checkOut() throws -> Connection {
        let decision = state.withLock { state -> Decision in
            if state.isClosed { return .closed }
            if let connection = state.idle.popLast() {
                state.inUse += 1
                return .use(connection)
            }
            if state.open < size {
                state.open += 1
                state.inUse += 1
                return .open
            }
            let waiter = Waiter()
            state.waiters.append(waiter)
            return .wait(waiter)
        }
        switch decision {
        case .use(let connection): return try replacedIfStale(connection)
        case .open: return try openConnection()
        case .closed: throw Self.closedError
        case .wait(let waiter): return try waitForGrant(waiter)
        }
    }

    private func waitForGrant(_ waiter: Waiter) throws -> Connection {
        let timeout = DispatchTime.now() + configuration.checkoutTimeout
        let signalled = waiter.semaphore.wait(timeout: timeout) == .success
        let grant = state.withLock { state -> Grant? in
            if waiter.grant == nil, !signalled {
                state.waiters.removeAll { $0 === waiter }
            }
            return waiter.grant
        }
        switch grant {
        case .connection(let connection): return try replacedIfStale(connection)
        case .openSlot: return try openConnection()
        case .closed: throw Self.closedError
        case nil:
            throw PostgresError(
                kind: .poolTimeout,
                message: "no database connection became free within \(configuration.checkoutTimeout) s"
            )
        }
    }

    /// `connection`, or a new one in its slot when the server dropped it while it was idle (`Connection.isStale`).
    private func replacedIfStale(_ connection: Connection) throws -> Connection {
        guard connection.isStale else { return connection }
        connection.close()
        return try openConnection()
    }

    /// Opens a connection in a slot already counted as open and in use; gives the slot back on failure.
    private func openConnection() throws -> Connection {
        do {
            return try Connection(configuration: configuration)
        } catch {
            releaseSlot()
            throw error
        }
    }

    // MARK: - Check-in

    private func checkIn(_ connection: Connection) {
        guard connection.prepareForReuse() else {
            connection.close()
            releaseSlot()
            return
        }
        let outcome = state.withLock { state -> (handedTo: Waiter?, closeIt: Bool) in
            if state.isClosed {
                state.open -= 1
                state.inUse -= 1
                return (nil, true)
            }
            if !state.waiters.isEmpty {
                let waiter = state.waiters.removeFirst()
                waiter.grant = .connection(connection)
                return (waiter, false)
            }
            state.inUse -= 1
            state.idle.append(connection)
            return (nil, false)
        }
        if outcome.closeIt { connection.close() }
        outcome.handedTo?.semaphore.signal()
    }

    /// A checked-out connection is gone (broken or never opened): hand its slot to the next waiter, if any.
    private func releaseSlot() {
        let waiter = state.withLock { state -> Waiter? in
            if !state.isClosed, !state.waiters.isEmpty {
                let waiter = state.waiters.removeFirst()
                waiter.grant = .openSlot
                return waiter
            }
            state.open -= 1
            state.inUse -= 1
            return nil
        }
        waiter?.semaphore.signal()
    }

    private static var closedError: PostgresError {
        PostgresError(kind: .other, message: "the connection pool is closed")
    }
}
