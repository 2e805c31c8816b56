import Foundation

/// The decider of the commission ledger (docs/affiliates.md, "Commission ledger"): what a verified App Store sale or
/// refund does to an affiliate's commission.
///
/// A sale earns a credit when its token carries a referral and the subscription's original purchase lies inside the
/// referral (from its bind, less `bindSkew` for clocks, until its window ends): the first purchase always, a renewal
/// while fewer than the campaign's `recurringRenewals` renewals of that original were credited. A REFUND or REVOKE of
/// a credited transaction reverses exactly what was credited for it. Each transaction is credited at most once and
/// reversed at most once.
public enum CommissionDecision {
    /// How much earlier than the bind Apple's purchase date may be (clocks differ by seconds, not minutes).
    public static let bindSkew: TimeInterval = 300
    /// One day, the unit of a hold period.
    public static let day: TimeInterval = 86_400

    /// A credit already in the ledger for the transaction.
    public struct Credited: Sendable, Equatable {
        public var eventId: String
        public var affiliateId: String
        public var campaignId: String
        public var originalTransactionId: String
        public var amount: Int
        public var currency: String

        public init(eventId: String, affiliateId: String, campaignId: String, originalTransactionId: String,
                    amount: Int, currency: String) {
            self.eventId = eventId
            self.affiliateId = affiliateId
            self.campaignId = campaignId
            self.originalTransactionId = originalTransactionId
            self.amount = amount
            self.currency = currency
        }
    }

    /// What the ledger holds that bears on one sale.
    public struct State: Sendable, Equatable {
        /// The transaction's credit, if any.
        public var credit: Credited?
        /// Whether that credit was reversed already.
        public var reversed: Bool
        /// Renewals of the sale's original transaction credited to the referral's affiliate so far.
        public var renewalsCredited: Int

        public init(credit: Credited?, reversed: Bool, renewalsCredited: Int) {
            self.credit = credit
            self.reversed = reversed
            self.renewalsCredited = renewalsCredited
        }
    }

    /// The entry to append.
    public enum Step: Sendable, Equatable {
        case credit(amount: Int, currency: String, payableAfter: Date)
        case reverse(Credited)
    }

    /// The step for `sale` given the token's referral (nil = none), the ledger's `state`, at `now`.
    public static func decide(_ sale: CommissionSale, referral: Referral?, state: State, now: Date)
        -> Step?
    {
        switch sale.kind {
        case .reversal:
            guard let credit = state.credit, !state.reversed else { return nil }
            return .reverse(credit)
        case .sale:
            guard state.credit == nil, let referral else { return nil }
            guard sale.originalPurchasedAt >= referral.boundAt.addingTimeInterval(-bindSkew),
                  sale.originalPurchasedAt < referral.windowEndsAt else { return nil }
            if sale.saleType == .renewal, state.renewalsCredited >= referral.commission.recurringRenewals { return nil }
            guard let earned = referral.commission.amount(baseAmount: sale.baseAmount, baseCurrency: sale.baseCurrency)
            else { return nil }
            let hold = Double(max(0, referral.holdDays)) * day
            return .credit(amount: earned.amount, currency: earned.currency, payableAfter: now.addingTimeInterval(hold))
        }
    }
}
