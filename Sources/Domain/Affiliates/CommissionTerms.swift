import Foundation

/// What a referral earns its affiliate: the campaign's commission rule and hold period, with the referral's window.
public struct CommissionTerms: Sendable, Equatable {
    /// How a credit's amount follows from a sale.
    public enum Rate: Sendable, Equatable {
        /// `basisPoints` / 10 000 of the sale's price, in the sale's currency.
        case percent(basisPoints: Int)
        /// A fixed amount in minor units of `currency` per credited sale.
        case fixed(amount: Int, currency: String)
    }

    public var rate: Rate
    /// How many renewals after the first purchase earn a credit too (0 = the first purchase only).
    public var recurringRenewals: Int
    /// Days from the credit until it is payable.
    public var holdDays: Int

    public init(rate: Rate, recurringRenewals: Int, holdDays: Int) {
        self.rate = rate
        self.recurringRenewals = recurringRenewals
        self.holdDays = holdDays
    }

    /// The commission on a sale of `baseAmount` minor units of `baseCurrency`, or nil when it earns nothing (a
    /// percentage of a sale with no price, or of a free one). A percentage is rounded half up to a minor unit.
    public func amount(baseAmount: Int, baseCurrency: String) -> (amount: Int, currency: String)? {
        switch rate {
        case .percent(let basisPoints):
            guard baseAmount > 0, baseCurrency != StorePurchase.unknownCurrency else { return nil }
            let (product, overflow) = baseAmount.multipliedReportingOverflow(by: basisPoints)
            guard !overflow else { return nil }
            let amount = (product + 5_000) / 10_000
            return amount > 0 ? (amount, baseCurrency) : nil
        case .fixed(let amount, let currency):
            return amount > 0 ? (amount, currency) : nil
        }
    }
}

/// A referral as the ledger sees it: who referred the token, when, until when a purchase counts, and on what terms.
public struct CommissionReferral: Sendable, Equatable {
    public var affiliateId: String
    public var campaignId: String
    public var clickId: String
    public var boundAt: Date
    public var windowEndsAt: Date
    public var terms: CommissionTerms

    public init(affiliateId: String, campaignId: String, clickId: String, boundAt: Date, windowEndsAt: Date,
                terms: CommissionTerms) {
        self.affiliateId = affiliateId
        self.campaignId = campaignId
        self.clickId = clickId
        self.boundAt = boundAt
        self.windowEndsAt = windowEndsAt
        self.terms = terms
    }
}
