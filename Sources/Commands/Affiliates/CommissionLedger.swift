import Domain
import EventStore
import Foundation
import Postgres

/// Credits and reverses affiliates' commissions from verified App Store notifications (docs/affiliates.md,
/// "Commission ledger"), inside the notification's own transaction: a notification recorded once (its dedupe key)
/// moves the ledger at most once, and the ledger's own key (`commissions`: one credit and one reversal per
/// transaction) keeps that true when one transaction arrives in several notifications, concurrently or not.
public struct CommissionLedger: Sendable {
    public init() {}

    /// What the notification that carried a sale says about itself.
    struct Source {
        var projectId: String
        var appId: String
        var notificationType: String
        var notificationEventId: UUID
    }

    /// Appends the credit or reversal `sale` earns, if any, at `now`.
    func apply(_ sale: CommissionSale, source: Source, org: UUID, now: Date, metadata: EventMetadata,
               transaction: EventTransaction) throws {
        let connection = transaction.connection
        let state = try self.state(sale, org: org, on: connection)
        let referral = sale.kind == .sale
            ? try AffiliateLookup.referral(org: org, appAccountToken: sale.appAccountToken, on: connection) : nil
        var decided = state
        if sale.kind == .sale, let referral {
            decided.renewalsCredited = try renewalsCredited(org: org, affiliateId: referral.affiliateId.description,
                                                            originalTransactionId: sale.originalTransactionId,
                                                            on: connection)
        }
        guard let step = CommissionDecision.decide(sale, referral: referral, state: decided, now: now) else { return }
        let cause = source.notificationEventId.lowercasedText
        let affiliateId: String
        let event: NewEvent
        switch step {
        case .credit(let amount, let currency, let payableAfter):
            guard let referral else { return }
            affiliateId = referral.affiliateId.description
            event = try NewEvent(CommissionCredited(
                affiliateId: affiliateId, campaignId: referral.campaignId.description,
                clickId: referral.clickId.description,
                projectId: source.projectId, appId: source.appId, notificationEventId: cause,
                transactionId: sale.transactionId, originalTransactionId: sale.originalTransactionId,
                saleType: sale.saleType.rawValue, purchasedAt: PaymentFields.text(sale.purchasedAt),
                baseAmount: sale.baseAmount, baseCurrency: sale.baseCurrency, amount: amount, currency: currency,
                payableAfter: PaymentFields.text(payableAfter)))
        case .reverse(let credit):
            affiliateId = credit.affiliateId
            event = try NewEvent(CommissionReversed(
                affiliateId: credit.affiliateId, campaignId: credit.campaignId, transactionId: sale.transactionId,
                originalTransactionId: credit.originalTransactionId, creditEventId: credit.eventId,
                notificationEventId: cause, reason: source.notificationType, amount: credit.amount,
                currency: credit.currency))
        }
        try transaction.append(org: org, stream: CommissionStreams.ledger(affiliateId: affiliateId),
                               expectedVersion: .any, events: [event], metadata: metadata)
    }

    /// The transaction's credit and whether it was reversed.
    private func state(_ sale: CommissionSale, org: UUID, on connection: Connection) throws
        -> CommissionDecision.State
    {
        let rows = try connection.queryPrepared("""
            SELECT entry, event_id::text AS event_id, affiliate_id::text AS affiliate_id,
                   campaign_id::text AS campaign_id, original_transaction_id, amount::text AS amount, currency
            FROM commissions WHERE org_id = $1::uuid AND transaction_id = $2
            """, [.text(org.lowercasedText), .text(sale.transactionId)]).rows
        var credit: CommissionDecision.Credited?
        var reversed = false
        for row in rows {
            if try row.string("entry") == "reversal" {
                reversed = true
                continue
            }
            guard let amount = Int(try row.string("amount")) else { continue }
            credit = CommissionDecision.Credited(
                eventId: try row.string("event_id"), affiliateId: try row.string("affiliate_id"),
                campaignId: try row.string("campaign_id"),
                originalTransactionId: try row.string("original_transaction_id"), amount: amount,
                currency: try row.string("currency"))
        }
        return CommissionDecision.State(credit: credit, reversed: reversed, renewalsCredited: 0)
    }

    /// Renewals of `originalTransactionId` credited to `affiliateId` so far.
    private func renewalsCredited(org: UUID, affiliateId: String, originalTransactionId: String,
                                  on connection: Connection) throws -> Int {
        let row = try connection.queryPrepared("""
            SELECT count(*)::int AS n FROM commissions
            WHERE org_id = $1::uuid AND affiliate_id = $2::uuid AND original_transaction_id = $3
              AND entry = 'credit' AND sale_type = 'renewal'
            """, [.text(org.lowercasedText), .text(affiliateId), .text(originalTransactionId)]).rows.first
        return try row.map { try $0.int("n") } ?? 0
    }
}
