import Domain
import EventStore
import Foundation
import Postgres

/// Reads `app_conversions` (migration 0035) for `GET /s2s/v1/apps/{appId}/conversions`: confirmed conversions per UTC
/// day of the purchase and tier of the install that hinted it (`app_installs`; the tier kept at its erasure for an
/// erased install; `unknown` for an install never recorded), with the confirmed amounts per currency, under the org's
/// row-level-security scope.
public struct ConversionCounts: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// One day's confirmed conversions.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var day: String
        /// Every tier, zero included.
        public var tiers: [InstallTier: Int]
        /// The confirmed amounts in minor units, per ISO 4217 currency code.
        public var amounts: [String: Int]
    }

    /// The days in [from, to) (by the hinted purchase's corrected time) with confirmed conversions, oldest first.
    public func perDay(org: OrgID, app: AppID, from: Date, to: Date) throws -> [Day] {
        let rows = try pool.withConnection { connection in
            try connection.queryPrepared("""
                SELECT c.day::text AS day, coalesce(i.tier, c.install_tier, 'unknown') AS tier, c.currency,
                    count(*)::text AS n, sum(c.amount)::text AS amount
                FROM app_conversions c
                LEFT JOIN app_installs i ON i.app_id = c.app_id AND i.install_hash = c.install_hash
                WHERE c.org_id = $1::uuid AND c.app_id = $2::uuid AND c.converted_at IS NOT NULL
                    AND c.hinted_at >= $3::timestamptz AND c.hinted_at < $4::timestamptz
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """, [.text(org.description), .text(app.description), .text(RFC3339.format(from)),
                      .text(RFC3339.format(to))], in: .org(org.uuid)).rows
        }
        var days: [Day] = []
        for row in rows {
            let day = try row.string("day")
            guard let tier = InstallTier(rawValue: try row.string("tier")), let count = Int(try row.string("n")),
                  let amount = Int(try row.string("amount")) else {
                throw InconsistentState("a stored conversion does not read back")
            }
            if days.last?.day != day {
                let zeros = Dictionary(uniqueKeysWithValues: InstallTier.allCases.map { ($0, 0) })
                days.append(Day(day: day, tiers: zeros, amounts: [:]))
            }
            days[days.count - 1].tiers[tier, default: 0] += count
            days[days.count - 1].amounts[try row.string("currency"), default: 0] += amount
        }
        return days
    }
}
