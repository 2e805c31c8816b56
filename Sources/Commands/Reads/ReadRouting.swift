import Foundation
import Postgres

/// Where `ReadRouting` keeps each writer's last WAL position for a few seconds, shared by every API instance (the
/// API's is in Redis). Both calls may throw when the store is away; `ReadRouting` then reads from the primary.
public protocol WritePositions: Sendable {
    /// Keeps `position` (a `pg_lsn` as text) for `writer` during `seconds`, replacing an older one.
    func remember(_ position: String, of writer: String, seconds: Int) throws
    /// The position kept for `writer`, nil when none is (never written, or longer ago than its `seconds`).
    func position(of writer: String) throws -> String?
}

/// Where the read models read from when `DATABASE_READ_URL` names a replica: the replica, except for a writer that
/// changed something in the last few seconds and whose change the replica has not replayed yet (read-your-writes).
///
/// After a successful write, the API calls `recordWrite(by:)` with the writer (a secret key's prefix): the primary's
/// WAL position then (`pg_current_wal_lsn()`, at or after the write's commit record) is kept in `positions` (Redis)
/// for `windowSeconds`, so every API instance sees it. A read by that writer waits up to `waitSeconds` for the
/// replica to replay that far (`pg_last_wal_replay_lsn()`), then reads the primary instead. A replica that cannot be
/// reached, or a position store that cannot say, sends the read to the primary too. Without a replica every read
/// goes to the primary.
public final class ReadRouting: Sendable {
    /// The pool of `DATABASE_URL`: commands, and reads that must see the latest state.
    public let primary: Pool
    /// The pool of `DATABASE_READ_URL`, or nil.
    public let replica: Pool?
    private let positions: (any WritePositions)?
    private let windowSeconds: Int
    private let waitSeconds: Double

    /// Routes reads to `replica` when given; `positions` holds the writers' positions (without it, every read by a
    /// writer goes to the primary).
    public init(primary: Pool, replica: Pool? = nil, positions: (any WritePositions)? = nil, windowSeconds: Int = 5,
                waitSeconds: Double = 0.5) {
        self.primary = primary
        self.replica = replica
        self.positions = positions
        self.windowSeconds = max(1, windowSeconds)
        self.waitSeconds = max(0, waitSeconds)
    }

    /// Remembers that `writer` just changed something (a no-op without a replica). Never throws: when the position
    /// cannot be read or kept, the writer's reads in the next seconds may miss the write, so this logs nothing and
    /// the caller may; the write itself is done either way.
    @discardableResult
    public func recordWrite(by writer: String) -> Bool {
        guard replica != nil, let positions else { return false }
        do {
            let position = try primary.withConnection {
                try $0.query("SELECT pg_current_wal_lsn()::text AS lsn").rows[0].string("lsn")
            }
            try positions.remember(position, of: writer, seconds: windowSeconds)
            return true
        } catch {
            return false
        }
    }

    /// Runs `body` with the pool a read by `writer` (nil: anonymous) should use; when that was the replica and it
    /// failed as an outage (down, lost, busy), runs it once more on the primary. `body` must only read.
    public func read<T>(by writer: String?, _ body: (Pool) throws -> T) throws -> T {
        let pool = choose(for: writer)
        guard pool !== primary else { return try body(primary) }
        do {
            return try body(pool)
        } catch let error as PostgresError where Self.outages.contains(error.kind) {
            return try body(primary)
        }
    }

    /// The replica when it holds everything `writer` wrote recently, else the primary.
    func choose(for writer: String?) -> Pool {
        guard let replica else { return primary }
        guard let writer else { return replica }
        guard let positions else { return primary }
        let kept: String?
        do { kept = try positions.position(of: writer) } catch { return primary }
        guard let position = kept else { return replica }
        let deadline = Date().addingTimeInterval(waitSeconds)
        repeat {
            let caughtUp = try? replica.withConnection { connection in
                // A server out of recovery (the URL points at a primary, or at a standby promoted by a failover,
                // whose replay position stays where recovery ended) takes the writes itself: it has them all.
                try connection.query(
                    "SELECT NOT pg_is_in_recovery() OR coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, true) AS ok",
                    [.text(position)]).rows[0].bool("ok")
            }
            guard let caughtUp else { return primary }
            if caughtUp { return replica }
            usleep(10_000)
        } while Date() < deadline
        return primary
    }

    private static let outages: [PostgresError.Kind] = [.connectFailed, .connectionLost, .poolTimeout]
}
