import Foundation

extension CommissionRule {
    /// The commission on a sale of `baseAmount` minor units of `baseCurrency`, or nil when it earns nothing (a
    /// percentage of a sale with no price, or of a free one). A percentage is rounded half up to a minor unit.
    public func amount(baseAmount: Int, baseCurrency: String) -> (amount: Int, currency: String)? {
        switch kind {
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
