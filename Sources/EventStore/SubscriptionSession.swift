import BackgroundTasks
import Postgres
import Synchronization

/// The connection and advisory lock of one `Subscription`, and its loop's step: one batch at a time.
///
/// Only the subscription's loop thread calls `step()` while the loop runs; `close()` runs once the loop has ended.
final class SubscriptionSession: Sendable {
    private struct State {
        var connection: Connection?
        var holdsLock = false
    }

    private let name: String
    private let configuration: PostgresConfiguration
    private let options: Subscription.Options
    private let handler: Subscription.Handler
    private let state = Mutex(State())
    private let active = Mutex(false)

    init(name: String, configuration: PostgresConfiguration, options: Subscription.Options,
         handler: @escaping Subscription.Handler) {
        self.name = name
        self.configuration = configuration
        self.options = options
        self.handler = handler
    }

    /// Whether the session holds the subscription's lock.
    var isActive: Bool { active.withLock { $0 } }

    /// Replaces a missing or broken connection, takes the lock if it does not hold it (`.idleFor` the lock poll
    /// interval when another consumer has it), then processes one batch (`.idle` when there was nothing new).
    func step() throws -> RepeatingTask.Outcome {
        try state.withLock { state in
            do {
                let connection: Connection
                if let live = state.connection, !live.isBroken {
                    connection = live
                } else {
                    state.connection?.close()
                    state.holdsLock = false
                    connection = try Connection(configuration: configuration)
                    state.connection = connection
                }
                if !state.holdsLock {
                    let taken = try Subscription.tryLock(name: name, on: connection)
                    state.holdsLock = taken
                    active.withLock { $0 = taken }
                    guard taken else { return .idleFor(seconds: options.lockPollInterval) }
                }
                let count = try Subscription.processBatch(
                    name: name, limit: options.batchSize, on: connection, handler: handler)
                return count == 0 ? .idle : .worked
            } catch {
                if state.connection?.isBroken == true {
                    active.withLock { $0 = false }
                    state.holdsLock = false
                }
                throw error
            }
        }
    }

    /// Releases the lock (when held on a live connection) and closes the connection.
    func close() {
        state.withLock { state in
            if state.holdsLock, let connection = state.connection, !connection.isBroken {
                let key = String(Subscription.lockKey(name: name))
                _ = try? connection.query("SELECT pg_advisory_unlock($1::bigint)", [.text(key)])
            }
            state.connection?.close()
            state.connection = nil
            state.holdsLock = false
            active.withLock { $0 = false }
        }
    }
}
