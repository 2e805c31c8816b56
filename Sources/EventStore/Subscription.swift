import BackgroundTasks
import Crypto
import Foundation
import Postgres

/// A named consumer of the global log: processes batches of events in `(tx_id, global_pos)` order and writes its
/// checkpoint in the same transaction as the handler's effects, so a crash never loses or repeats an effect.
///
/// `start()` runs the loop on a thread of its own with a dedicated connection (libpq blocks). The loop holds a
/// session advisory lock keyed by the name, so one consumer per name is active; others poll for the lock every
/// `lockPollInterval`. When idle it sleeps `idlePollInterval` (no LISTEN/NOTIFY). Errors go to `onError`; the
/// batch is rolled back and retried after `errorBackoff` (a broken connection is replaced, the lock re-taken).
public final class Subscription: Sendable {
    /// Called with each batch (in order) and the connection of the open transaction; write effects on it.
    /// Throwing rolls back the effects and the checkpoint together.
    public typealias Handler = @Sendable (_ events: [RecordedEvent], _ connection: Connection) throws -> Void

    /// Timing and batch size.
    public struct Options: Sendable {
        public var batchSize: Int
        /// Seconds to sleep after an empty batch.
        public var idlePollInterval: Double
        /// Seconds between attempts to take the advisory lock while another consumer holds it.
        public var lockPollInterval: Double
        /// Seconds to wait after an error before trying again.
        public var errorBackoff: Double

        public init(batchSize: Int = 100, idlePollInterval: Double = 0.05, lockPollInterval: Double = 0.5,
                    errorBackoff: Double = 0.5) {
            self.batchSize = max(1, batchSize)
            self.idlePollInterval = idlePollInterval
            self.lockPollInterval = lockPollInterval
            self.errorBackoff = errorBackoff
        }
    }

    /// The subscription's name: its checkpoint row and its advisory lock.
    public let name: String
    private let session: SubscriptionSession
    private let task: RepeatingTask

    /// Creates a stopped subscription; `configuration` is used to open its own connection.
    public init(
        name: String, configuration: PostgresConfiguration, options: Options = Options(),
        onError: @escaping @Sendable (any Error) -> Void = { _ in }, handler: @escaping Handler
    ) {
        let session = SubscriptionSession(name: name, configuration: configuration, options: options, handler: handler)
        self.name = name
        self.session = session
        self.task = RepeatingTask(
            name: "subscription \(name)", idleInterval: options.idlePollInterval, errorBackoff: options.errorBackoff,
            onError: onError, step: { _ in try session.step() })
    }

    /// Starts the loop on a new thread; calling it again does nothing.
    public func start() {
        task.start()
    }

    /// Asks the loop to stop after the batch in progress and waits until its thread has ended (lock released,
    /// connection closed).
    public func stop() {
        task.stop()
        session.close()
    }

    /// Whether this consumer currently holds the subscription's lock.
    public var isActive: Bool { session.isActive }

    // MARK: - One batch (also usable without the loop)

    /// The advisory lock key of a subscription: the first 8 bytes of SHA-256("handoff.subscription:" + name),
    /// big-endian, as a signed 64-bit integer.
    public static func lockKey(name: String) -> Int64 {
        let digest = SHA256.hash(Array("handoff.subscription:\(name)".utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: value)
    }

    /// Tries to take the subscription's session advisory lock on `connection`; creates its checkpoint row if new.
    public static func tryLock(name: String, on connection: Connection) throws -> Bool {
        let taken = try connection.query("SELECT pg_try_advisory_lock($1::bigint) AS taken",
                                         [.text(String(lockKey(name: name)))]).rows[0].bool("taken")
        if taken {
            try connection.queryPrepared(
                "INSERT INTO event_subscriptions (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [.text(name)])
        }
        return taken
    }

    /// The subscription's checkpoint (`.start` when it has none).
    public static func checkpoint(name: String, on connection: Connection) throws -> GlobalCheckpoint {
        guard let row = try connection.queryPrepared(
            "SELECT tx_id::text AS tx_id, global_pos FROM event_subscriptions WHERE name = $1", [.text(name)]).first
        else { return .start }
        guard let transactionId = UInt64(try row.string("tx_id")) else {
            throw EventStoreError.malformedRow("checkpoint tx_id is not a number")
        }
        return GlobalCheckpoint(transactionId: transactionId, globalPosition: try row.int("global_pos"))
    }

    /// Runs one batch in one transaction: reads the checkpoint, fetches up to `limit` events after it, calls
    /// `handler`, moves the checkpoint, commits. Returns how many events were handled (0: nothing new).
    ///
    /// The caller must hold the subscription's lock (`tryLock`) and the checkpoint row must exist; if the checkpoint
    /// moved meanwhile (another consumer without the lock), the batch is rolled back and this throws.
    public static func processBatch(
        name: String, limit: Int, on connection: Connection, handler: Handler
    ) throws -> Int {
        try connection.execute("BEGIN")
        do {
            let from = try checkpoint(name: name, on: connection)
            let events = try EventReader.readGlobal(after: from, limit: limit, on: connection)
            guard let last = events.last else {
                try connection.execute("COMMIT")
                return 0
            }
            try handler(events, connection)
            let moved = try connection.queryPrepared("""
                UPDATE event_subscriptions SET tx_id = $2::xid8, global_pos = $3::bigint, updated_at = now()
                WHERE name = $1 AND tx_id = $4::xid8 AND global_pos = $5::bigint
                """, [.text(name), .text(String(last.transactionId)), .int(last.globalPosition),
                      .text(String(from.transactionId)), .int(from.globalPosition)])
            guard moved.affectedRows == 1 else {
                throw EventStoreError.checkpointMoved(subscription: name)
            }
            try connection.execute("COMMIT")
            return events.count
        } catch {
            if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
