import Foundation
import Postgres

extension RecordingStore {
    /// Days recordings are kept by default (`RECORDING_RETENTION_DAYS`).
    public static let defaultRetentionDays = 90

    /// Retention (worker role `ingest-retention`): deletes every organization's packets received more than
    /// `retentionDays` before `now`, the sessions left without packets, and the screenshots no packet used since
    /// (`recordings_drop_before`, migration 0038), 5000 packets per statement until none is left; answers how many
    /// packets went. Deployment-wide, like the ingest partitions.
    @discardableResult
    public func applyRetention(now: Date, retentionDays: Int = defaultRetentionDays) throws -> Int {
        let before = now.addingTimeInterval(-Double(retentionDays) * 86400).timeIntervalSince1970
        var total = 0
        while true {
            let dropped = try pool.withConnection { connection in
                try connection.query("""
                    SELECT recordings_drop_before(to_timestamp($1::double precision), 5000)::text AS n
                    """, [.double(before)]).rows.first.flatMap { Int(try $0.string("n")) } ?? 0
            }
            total += dropped
            if dropped < 5000 { return total }
        }
    }
}
