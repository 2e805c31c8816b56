import Domain
import EventStore
import Foundation
import Postgres

/// Folds `CommissionCredited` and `CommissionReversed` into `commissions` (migration `0022_commissions.sql`), with
/// each entry's `org_seq` and hash. The table's key (org, transaction, entry) is what keeps a transaction credited
/// once and reversed once under concurrent deliveries.
public struct CommissionProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["commissions"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let row: [PostgresValue]
        switch event.eventType {
        case CommissionCredited.eventType:
            let credit = try event.decode(CommissionCredited.self)
            row = [.text(credit.transactionId), .text("credit"), .text(credit.affiliateId), .text(credit.campaignId),
                   .text(credit.originalTransactionId), .text(credit.saleType), .text(String(credit.baseAmount)),
                   .text(credit.baseCurrency), .text(String(credit.amount)), .text(credit.currency),
                   .text(credit.payableAfter)]
        case CommissionReversed.eventType:
            let reversal = try event.decode(CommissionReversed.self)
            row = [.text(reversal.transactionId), .text("reversal"), .text(reversal.affiliateId),
                   .text(reversal.campaignId), .text(reversal.originalTransactionId), .null, .null, .null,
                   .text(String(reversal.amount)), .text(reversal.currency), .null]
        default:
            return
        }
        try connection.query("""
            INSERT INTO \(tables["commissions"]) (org_id, transaction_id, entry, affiliate_id, campaign_id,
                original_transaction_id, sale_type, base_amount, base_currency, amount, currency, payable_after,
                event_id, org_seq, hash, recorded_at)
            VALUES ($12::uuid, $1, $2, $3::uuid, $4::uuid, $5, $6, $7::bigint, $8, $9::bigint, $10,
                    $11::timestamptz, $13::uuid, $14::bigint, $15, $16::timestamptz)
            """, row + [.text(event.orgId.lowercasedText), .text(event.eventId.lowercasedText),
                        .text(String(event.orgSeq)), .bytea(event.hash), .text(event.recordedAt)])
    }
}
