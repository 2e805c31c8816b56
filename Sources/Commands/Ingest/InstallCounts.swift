import Domain
import EventStore
import Foundation
import Postgres

/// Reads `app_installs` (migration 0030) for `GET /s2s/v1/apps/{appId}/installs`: installs per UTC day of the first
/// open and tier, under the org's row-level-security scope.
public struct InstallCounts: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// One day's installs: every tier, zero included.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var day: String
        public var tiers: [InstallTier: Int]
    }

    /// The days in [from, to) (by the install's corrected first open) that have installs, oldest first.
    public func perDay(org: OrgID, app: AppID, from: Date, to: Date) throws -> [Day] {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT day::text AS day, tier, count(*)::text AS n FROM app_installs
                WHERE org_id = $1::uuid AND app_id = $2::uuid AND installed_at >= $3::timestamptz
                    AND installed_at < $4::timestamptz
                GROUP BY day, tier ORDER BY day, tier
                """, [.text(org.description), .text(app.description), .text(RFC3339.format(from)),
                      .text(RFC3339.format(to))], in: .org(org.uuid)).rows
        }
        var days: [Day] = []
        for row in rows {
            let day = try row.string("day")
            guard let tier = InstallTier(rawValue: try row.string("tier")), let count = Int(try row.string("n")) else {
                throw InconsistentState("a stored install tier does not read back")
            }
            if days.last?.day != day {
                let zeros = Dictionary(uniqueKeysWithValues: InstallTier.allCases.map { ($0, 0) })
                days.append(Day(day: day, tiers: zeros))
            }
            days[days.count - 1].tiers[tier] = count
        }
        return days
    }
}
