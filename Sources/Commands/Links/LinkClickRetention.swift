import Foundation
import Postgres

/// Retention of go-link clicks (worker role `ingest-retention`, `LINK_CLICK_RETENTION_DAYS`): a click older than the
/// retention is deleted for every organization at once (`link_clicks_drop_before`, migration 0038). An install that
/// arrives later with its `x3c` then finds no click and the token names no source.
public struct LinkClickRetention: Sendable {
    /// Days clicks are kept by default: longer than Google Play keeps an install referrer (90 days).
    public static let defaultRetentionDays = 180

    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// Deletes the clicks made more than `retentionDays` before `now`, 5000 per statement until none is left; answers
    /// how many went.
    @discardableResult
    public func apply(now: Date, retentionDays: Int = defaultRetentionDays) throws -> Int {
        let before = now.addingTimeInterval(-Double(retentionDays) * 86400).timeIntervalSince1970
        var total = 0
        while true {
            let dropped = try pool.withConnection { connection in
                try connection.query("""
                    SELECT link_clicks_drop_before(to_timestamp($1::double precision), 5000)::text AS n
                    """, [.double(before)]).rows.first.flatMap { Int(try $0.string("n")) } ?? 0
            }
            total += dropped
            if dropped < 5000 { return total }
        }
    }
}
