import Domain
import EventStore
import Foundation
import Postgres

/// An affiliate's commission statement (`GET /s2s/v1/affiliates/{id}/statement`, `handoff admin affiliate
/// statement`): the credits and reversals recorded in a range, each with its event's `org_seq` and hash, and totals
/// per currency — credited, reversed, net, and of the net what is payable now (hold period over) and what is held.
///
/// Read from `commissions` (`CommissionProjection`), which holds exactly the ledger's events: every total can be
/// recomputed from `handoff audit export` alone (docs/affiliates.md shows how).
public struct CommissionStatement: Sendable {
    /// One credit or reversal.
    public struct Entry: Sendable, Equatable {
        /// `credit` or `reversal`.
        public var entry: String
        public var eventId: String
        public var orgSeq: Int
        /// Hex of the event's hash in the org's chain.
        public var hash: String
        public var recordedAt: String
        public var transactionId: String
        public var originalTransactionId: String
        public var campaignId: String
        /// `first_purchase` or `renewal`; nil for a reversal.
        public var saleType: String?
        public var baseAmount: Int?
        public var baseCurrency: String?
        /// Minor units of `currency`, positive for both kinds (a reversal subtracts it).
        public var amount: Int
        public var currency: String
        /// When a credit is payable; nil for a reversal (it follows its credit).
        public var payableAfter: String?

        public var json: EventJSON {
            .object([
                "entry": .string(entry), "eventId": .string(eventId), "orgSeq": .integer(Int64(orgSeq)),
                "hash": .string(hash), "recordedAt": .string(recordedAt), "transactionId": .string(transactionId),
                "originalTransactionId": .string(originalTransactionId), "campaignId": .string(campaignId),
                "saleType": saleType.map(EventJSON.string) ?? .null,
                "baseAmount": baseAmount.map { .integer(Int64($0)) } ?? .null,
                "baseCurrency": baseCurrency.map(EventJSON.string) ?? .null,
                "amount": .integer(Int64(amount)), "currency": .string(currency),
                "payableAfter": payableAfter.map(EventJSON.string) ?? .null,
            ])
        }
    }

    /// The sums of one currency over the whole range (not only the page).
    public struct Total: Sendable, Equatable {
        public var currency: String
        public var credited: Int
        public var reversed: Int
        public var net: Int { credited - reversed }
        /// Net of the credits whose hold ended by the statement's `asOf` (their reversals included).
        public var payableNow: Int
        public var held: Int { net - payableNow }

        public var json: EventJSON {
            .object(["currency": .string(currency), "credited": .integer(Int64(credited)),
                     "reversed": .integer(Int64(reversed)), "net": .integer(Int64(net)),
                     "payableNow": .integer(Int64(payableNow)), "held": .integer(Int64(held))])
        }
    }

    /// One page of entries (oldest first) with the range's totals.
    public struct Page: Sendable, Equatable {
        public var entries: [Entry]
        public var totals: [Total]
        /// The `after` of the next page; nil when this is the last.
        public var nextAfter: Int?
    }

    /// The most entries one page holds.
    public static let maxLimit = 1000

    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// What a statement is asked for.
    public struct Query: Sendable, Equatable {
        public var affiliate: AffiliateID
        /// The affiliate's project (a key's; nil for the CLI, which names the affiliate only).
        public var project: ProjectID?
        /// The caller's org (a key's; nil: the affiliate's, `affiliate_org`).
        public var org: OrgID?
        /// Entries recorded in [`from`, `to`).
        public var from: Date
        public var to: Date
        /// The instant payable-now is judged at.
        public var asOf: Date
        public var limit: Int
        /// A page's `nextAfter` (an `org_seq`).
        public var after: Int?

        public init(affiliate: AffiliateID, project: ProjectID?, org: OrgID?, from: Date, to: Date, asOf: Date,
                    limit: Int = CommissionStatement.maxLimit, after: Int? = nil) {
            self.affiliate = affiliate
            self.project = project
            self.org = org
            self.from = from
            self.to = to
            self.asOf = asOf
            self.limit = limit
            self.after = after
        }
    }

    /// One page of the entries `query` asks for, oldest first, with the totals of its whole range; nil when the
    /// affiliate does not exist in the project (or org) given — another organization's affiliate reads as none.
    public func read(_ query: Query) throws -> Page? {
        let limit = max(1, min(query.limit, Self.maxLimit))
        let scope = query.org.map { OrgScope.org($0.uuid) } ?? .orgOf(.affiliate, .text(query.affiliate.description))
        return try log.read(in: scope) { connection in
            guard let owner = try connection.query("""
                SELECT org_id::text AS org_id, project_id::text AS project_id FROM affiliates WHERE affiliate_id = $1::uuid
                """, [.text(query.affiliate.description)]).rows.first,
                query.project.map({ (try? owner.string("project_id")) == $0.description }) ?? true
            else { return nil }
            let range: [PostgresValue] = [.text(try owner.string("org_id")), .text(query.affiliate.description),
                                          .text(PaymentFields.text(query.from)), .text(PaymentFields.text(query.to))]
            let rows = try connection.query("""
                SELECT entry, event_id::text AS event_id, org_seq::text AS org_seq, encode(hash, 'hex') AS hash,
                       to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at,
                       transaction_id, original_transaction_id, campaign_id::text AS campaign_id, sale_type,
                       base_amount::text AS base_amount, base_currency, amount::text AS amount, currency,
                       to_char(payable_after AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS payable_after
                FROM commissions
                WHERE org_id = $1::uuid AND affiliate_id = $2::uuid
                  AND recorded_at >= $3::timestamptz AND recorded_at < $4::timestamptz
                  AND ($5::bigint IS NULL OR org_seq > $5::bigint)
                ORDER BY org_seq LIMIT $6::bigint
                """, range + [.optional(query.after), .int(limit + 1)]).rows
            let entries = try rows.prefix(limit).map(Self.entry)
            let totals = try connection.query("""
                SELECT c.currency,
                       sum(CASE WHEN c.entry = 'credit' THEN c.amount ELSE 0 END)::text AS credited,
                       sum(CASE WHEN c.entry = 'reversal' THEN c.amount ELSE 0 END)::text AS reversed,
                       sum(CASE WHEN coalesce(c.payable_after, credit.payable_after) <= $5::timestamptz
                                THEN CASE WHEN c.entry = 'credit' THEN c.amount ELSE -c.amount END
                                ELSE 0 END)::text AS payable_now
                FROM commissions c
                LEFT JOIN commissions credit ON c.entry = 'reversal' AND credit.org_id = c.org_id
                    AND credit.transaction_id = c.transaction_id AND credit.entry = 'credit'
                WHERE c.org_id = $1::uuid AND c.affiliate_id = $2::uuid
                  AND c.recorded_at >= $3::timestamptz AND c.recorded_at < $4::timestamptz
                GROUP BY c.currency ORDER BY c.currency
                """, range + [.text(PaymentFields.text(query.asOf))]).rows.map(Self.total)
            return Page(entries: entries, totals: totals, nextAfter: rows.count > limit ? entries.last?.orgSeq : nil)
        }
    }

    private static func entry(_ row: Row) throws -> Entry {
        Entry(entry: try row.string("entry"), eventId: try row.string("event_id"),
              orgSeq: try integer(row, "org_seq"), hash: try row.string("hash"),
              recordedAt: try row.string("recorded_at"), transactionId: try row.string("transaction_id"),
              originalTransactionId: try row.string("original_transaction_id"),
              campaignId: try row.string("campaign_id"),
              saleType: row.isNull("sale_type") ? nil : try row.string("sale_type"),
              baseAmount: row.isNull("base_amount") ? nil : try integer(row, "base_amount"),
              baseCurrency: row.isNull("base_currency") ? nil : try row.string("base_currency"),
              amount: try integer(row, "amount"), currency: try row.string("currency"),
              payableAfter: row.isNull("payable_after") ? nil : try row.string("payable_after"))
    }

    private static func total(_ row: Row) throws -> Total {
        Total(currency: try row.string("currency"), credited: try integer(row, "credited"),
              reversed: try integer(row, "reversed"), payableNow: try integer(row, "payable_now"))
    }

    private static func integer(_ row: Row, _ column: String) throws -> Int {
        guard let value = Int(try row.string(column)) else { throw InconsistentState("\(column) is not an integer") }
        return value
    }
}

extension CommissionStatement.Page {
    /// `{"affiliateId","from","to","asOf","entries":[…],"totals":[…],"nextAfter":N|null}`.
    public func json(affiliate: AffiliateID, from: Date, to: Date, asOf: Date) -> EventJSON {
        .object([
            "affiliateId": .string(affiliate.description), "from": .string(PaymentFields.text(from)),
            "to": .string(PaymentFields.text(to)), "asOf": .string(PaymentFields.text(asOf)),
            "entries": .array(entries.map(\.json)), "totals": .array(totals.map(\.json)),
            "nextAfter": nextAfter.map { .integer(Int64($0)) } ?? .null,
        ])
    }
}
