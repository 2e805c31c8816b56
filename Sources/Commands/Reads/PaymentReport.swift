import Domain
import EventStore
import Foundation
import Postgres

/// An organization's payment report (issue 16 §4, docs/audit.md "Reports"): per currency, the payments recorded and
/// refunded in a range and the affiliate commission credited and reversed, grouped by UTC day or by product, with
/// totals — computed at the org's latest signed chain head.
///
/// Only events with `org_seq` ≤ that head's count, so the report is reproducible from any `handoff audit export`
/// that reaches the head: every figure is a sum over the export's events. An org without a signed head yet gets an
/// empty report (`head` nil, `throughOrgSeq` 0). The range is on each event's `recorded_at`: [`from`, `to`), unbounded
/// where nil, empty when `from` is not before `to`.
public struct PaymentReport: Sendable, Equatable {
    /// How the groups are keyed.
    public enum Grouping: String, Sendable, Equatable, CaseIterable {
        /// The UTC day of `recorded_at`.
        case day
        /// The payment's project and product id (a refund counts under its payment's).
        case product
    }

    /// What a report is asked for.
    public struct Query: Sendable, Equatable {
        public var from: Date?
        public var to: Date?
        public var grouping: Grouping

        public init(from: Date?, to: Date?, grouping: Grouping) {
            self.from = from
            self.to = to
            self.grouping = grouping
        }
    }

    public var org: UUID
    public var query: Query
    /// The signed head the report was computed at; nil when the org has none yet.
    public var head: ChainHead?
    /// Groups in key order, then currency.
    public var groups: [PaymentReportLine]
    /// One per currency, in currency order.
    public var totals: [PaymentReportLine]

    /// The last `org_seq` counted: the head's, 0 without one.
    public var throughOrgSeq: Int { head?.orgSeq ?? 0 }

    public init(org: UUID, query: Query, head: ChainHead?, groups: [PaymentReportLine],
                totals: [PaymentReportLine]) {
        self.org = org
        self.query = query
        self.head = head
        self.groups = groups
        self.totals = totals
    }

    /// The report of `org` (the API's: a read scoped to that org under row-level security).
    public static func read(_ query: Query, org: OrgID, log: EventLog, from pool: Pool? = nil) throws
        -> PaymentReport
    {
        try log.read(in: .org(org.uuid), from: pool ?? log.pool) { try compute(query, org: org.uuid, on: $0) }
    }

    /// The report of `org` on `connection` (the CLI's owner connection, or a transaction scoped to `org`).
    public static func compute(_ query: Query, org: UUID, on connection: Connection) throws -> PaymentReport {
        guard let head = try ChainHeadStore.latest(org: org, on: connection) else {
            return PaymentReport(org: org, query: query, head: nil, groups: [], totals: [])
        }
        let rows = try connection.query(sql(query.grouping), [
            .text(org.lowercasedText), .int(head.orgSeq),
            .optional(query.from.map(instantText)), .optional(query.to.map(instantText)),
        ]).rows
        var groups: [PaymentReportLine] = []
        var totals: [PaymentReportLine] = []
        for row in rows {
            let isTotal = try row.string("is_total") == "t"
            if !isTotal && query.grouping == .product && row.isNull("product_id") { continue }
            let line = try Self.line(row, isTotal: isTotal, grouping: query.grouping)
            if isTotal { totals.append(line) } else { groups.append(line) }
        }
        return PaymentReport(org: org, query: query, head: head, groups: groups, totals: totals)
    }

    /// `date` to the millisecond (what `RFC3339.parse` keeps), in the canonical UTC form of `recorded_at`
    /// (`YYYY-MM-DDTHH:MM:SS.fff000Z`): the bound the query uses and the report shows. Rounded, not cut, so a
    /// millisecond that a `Double` holds as …999.99 µs stays itself.
    public static func instantText(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = String(milliseconds - seconds * 1000)
        let whole = ChainHead.canonicalTime(Date(timeIntervalSince1970: Double(seconds)))
        return whole.prefix(20) + String(repeating: "0", count: 3 - fraction.count) + fraction + "000Z"
    }

    /// One query: the facts (payments, refunds with their payment's currency, product and amount, commission
    /// credits and reversals) of the org's events up to the head, in the range, summed per group and currency and
    /// per currency (grouping sets). In product mode commission facts have no key: their group rows are dropped.
    static func sql(_ grouping: Grouping) -> String {
        let key = grouping == .day
            ? "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, NULL::text AS project_id, "
                + "NULL::text AS product_id"
            : "NULL::text AS day, project_id, product_id"
        return """
            WITH scoped AS (
                SELECT org_seq, event_type, recorded_at, data FROM events
                WHERE org_id = $1::uuid AND org_seq <= $2::bigint
                  AND event_type IN ('PaymentRecorded', 'PaymentRefunded', 'CommissionCredited', 'CommissionReversed')
            ), paid AS (
                SELECT DISTINCT ON (data->>'paymentId') data->>'paymentId' AS payment_id, data FROM scoped
                WHERE event_type = 'PaymentRecorded' ORDER BY data->>'paymentId', org_seq
            ), facts AS (
                SELECT s.recorded_at, s.event_type, coalesce(p.data, s.data)->>'currency' AS currency,
                       CASE WHEN s.event_type LIKE 'Payment%' THEN coalesce(p.data, s.data)->>'projectId' END
                           AS project_id,
                       coalesce(p.data, s.data)->>'productId' AS product_id,
                       (coalesce(p.data, s.data)->>'amount')::numeric AS amount
                FROM scoped s
                LEFT JOIN paid p ON s.event_type = 'PaymentRefunded' AND p.payment_id = s.data->>'paymentId'
                WHERE (s.event_type <> 'PaymentRefunded' OR p.payment_id IS NOT NULL)
                  AND ($3::timestamptz IS NULL OR s.recorded_at >= $3::timestamptz)
                  AND ($4::timestamptz IS NULL OR s.recorded_at < $4::timestamptz)
            ), keyed AS (
                SELECT \(key), currency, event_type, amount FROM facts
            )
            SELECT day, project_id, product_id, currency,
                   (GROUPING(day, project_id, product_id) <> 0) AS is_total,
                   count(*) FILTER (WHERE event_type = 'PaymentRecorded') AS payment_count,
                   coalesce(sum(amount) FILTER (WHERE event_type = 'PaymentRecorded'), 0)::text AS gross,
                   count(*) FILTER (WHERE event_type = 'PaymentRefunded') AS refund_count,
                   coalesce(sum(amount) FILTER (WHERE event_type = 'PaymentRefunded'), 0)::text AS refunds,
                   (coalesce(sum(amount) FILTER (WHERE event_type = 'PaymentRecorded'), 0)
                    - coalesce(sum(amount) FILTER (WHERE event_type = 'PaymentRefunded'), 0))::text AS net,
                   count(*) FILTER (WHERE event_type = 'CommissionCredited') AS credit_count,
                   coalesce(sum(amount) FILTER (WHERE event_type = 'CommissionCredited'), 0)::text AS credited,
                   count(*) FILTER (WHERE event_type = 'CommissionReversed') AS reversal_count,
                   coalesce(sum(amount) FILTER (WHERE event_type = 'CommissionReversed'), 0)::text AS reversed,
                   (coalesce(sum(amount) FILTER (WHERE event_type = 'CommissionCredited'), 0)
                    - coalesce(sum(amount) FILTER (WHERE event_type = 'CommissionReversed'), 0))::text
                       AS commission_net
            FROM keyed
            GROUP BY GROUPING SETS ((day, project_id, product_id, currency), (currency))
            ORDER BY is_total, day, project_id, product_id, currency
            """
    }

    private static func line(_ row: Row, isTotal: Bool, grouping: Grouping) throws -> PaymentReportLine {
        func amount(_ column: String) throws -> String {
            let text = try row.string(column)
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else {
                throw InconsistentState("payment report: \(column) is not an integer")
            }
            return text
        }
        let commission = PaymentReportLine.Commission(
            creditCount: try row.int("credit_count"), credited: try amount("credited"),
            reversalCount: try row.int("reversal_count"), reversed: try amount("reversed"),
            net: try amount("commission_net"))
        return PaymentReportLine(
            day: isTotal ? nil : row["day"], projectId: isTotal ? nil : row["project_id"],
            productId: isTotal ? nil : row["product_id"], currency: try row.string("currency"),
            paymentCount: try row.int("payment_count"), gross: try amount("gross"),
            refundCount: try row.int("refund_count"), refunds: try amount("refunds"), net: try amount("net"),
            commission: isTotal || grouping == .day ? commission : nil)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
