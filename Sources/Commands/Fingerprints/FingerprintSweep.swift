import Foundation
import Postgres
import Synchronization

/// Deletes expired fingerprint rows of every organization, so a row does not wait for its own organization's next
/// fingerprint event (`FingerprintProjection` prunes only the event's org).
///
/// Run opportunistically from the capture and resolve paths, at most once per `interval` per process, and bounded to
/// `batch` rows per run (a `ctid` subquery, since `DELETE` has no `LIMIT`). It uses the database clock minus
/// `margin`: such a row can no longer match (the resolve query ignores rows past `expires_at` anyway), and the margin
/// keeps a service clock slightly behind the database's from losing a row at its edge. A failed sweep is ignored:
/// the next one catches up, and the request it rode on does not depend on it. It reaches every org's rows through
/// `fingerprints_sweep` (migration 0015), a function of the owner that deletes only such rows (the margin is
/// written there too).
public final class FingerprintSweep: Sendable {
    public let interval: Double
    public let batch: Int
    public static let margin = "1 minute"
    /// When the last sweep started (seconds since 1970); 0 before the first.
    private let lastRun = Mutex<Double>(0)

    public init(interval: Double = 60, batch: Int = 1000) {
        self.interval = interval
        self.batch = batch
    }

    /// Sweeps on a pooled connection of `pool` when the last sweep of this process is `interval` old; answers how
    /// many rows it deleted (nil when it did not run or failed).
    @discardableResult
    public func runIfDue(on pool: Pool) -> Int? {
        let now = Date().timeIntervalSince1970
        let due = lastRun.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
        guard due else { return nil }
        return try? pool.withConnection { connection in
            try connection.query("SELECT fingerprints_sweep($1::int) AS deleted", [.int(batch)]).rows[0]
                .int("deleted")
        }
    }
}
