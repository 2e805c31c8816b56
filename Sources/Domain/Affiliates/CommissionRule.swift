import Foundation

/// What a campaign pays its affiliate per conversion: a share of the price in basis points, or a fixed amount in one
/// currency; either for the first purchase only or also for up to `recurringRenewals` renewals after it.
///
/// JSON (in events and answers): `{"type":"percent","basisPoints":N,"recurringRenewals":M}` (N in 1…10000) or
/// `{"type":"fixed","amountMinor":N,"currency":"USD","recurringRenewals":M}` (N ≥ 1 in minor units, ISO 4217
/// upper-case), M in 0…120 (0 = the first purchase only). Decoding checks the same rules as `parse`. Amounts are never
/// converted between currencies.
public struct CommissionRule: Codable, Hashable, Sendable {
    /// How the amount of one conversion is found.
    public enum Kind: Hashable, Sendable {
        /// `basisPoints` / 10000 of the transaction's price, in the transaction's currency.
        case percent(basisPoints: Int)
        /// `amountMinor` in `currency`, whatever the price.
        case fixed(amountMinor: Int, currency: String)
    }

    public var kind: Kind
    /// Renewals after the first purchase that also earn commission (0…120).
    public var recurringRenewals: Int

    /// The basis points a percent rule may have.
    public static let basisPoints = 1...10_000
    /// The renewals a rule may pay for.
    public static let renewals = 0...120
    /// The largest fixed amount (a Postgres `bigint`).
    public static let maxAmountMinor = PaymentFields.maxAmount

    /// A rule already checked (`parse` checks one from input).
    public init(kind: Kind, recurringRenewals: Int = 0) {
        self.kind = kind
        self.recurringRenewals = recurringRenewals
    }

    /// Checks the members of a rule as given; each refusal (`VALIDATION_COMMISSION_FORMAT`, or
    /// `VALIDATION_CURRENCY_FORMAT`) names the member as `name` spells it (`commission.basisPoints` by default; the
    /// CLI passes its flags). A member of the other type is refused, so a rule reads one way only.
    public static func parse(type: String, basisPoints: Int?, amountMinor: Int?, currency: String?,
                             recurringRenewals: Int?, name: (String) -> String = { "commission." + $0 })
        -> Result<CommissionRule, FieldRefusal>
    {
        func refusal(_ member: String, _ rule: String) -> Result<CommissionRule, FieldRefusal> {
            .failure(FieldRefusal(field: name(member), code: .commissionFormat, rule: rule))
        }
        let renewals = recurringRenewals ?? 0
        guard Self.renewals.contains(renewals) else {
            return refusal("recurringRenewals", "be an integer from 0 to \(Self.renewals.upperBound)")
        }
        switch type {
        case "percent":
            guard let points = basisPoints, Self.basisPoints.contains(points) else {
                return refusal("basisPoints", "be an integer from 1 to 10000 for a percent rule")
            }
            if amountMinor != nil { return refusal("amountMinor", "be absent for a percent rule") }
            if currency != nil { return refusal("currency", "be absent for a percent rule") }
            return .success(CommissionRule(kind: .percent(basisPoints: points), recurringRenewals: renewals))
        case "fixed":
            if basisPoints != nil { return refusal("basisPoints", "be absent for a fixed rule") }
            guard let amount = amountMinor, amount >= 1 else {
                return refusal("amountMinor", "be an integer ≥ 1 in minor units for a fixed rule")
            }
            guard let currency else { return refusal("currency", "be given for a fixed rule") }
            switch PaymentFields.currency(currency, field: name("currency")) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let code):
                return .success(CommissionRule(kind: .fixed(amountMinor: amount, currency: code),
                                               recurringRenewals: renewals))
            }
        default:
            return refusal("type", "be percent or fixed")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, basisPoints, amountMinor, currency, recurringRenewals
    }

    /// Reads a rule and checks it as `parse` does (a stored rule passed it when it was recorded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let parsed = Self.parse(
            type: try container.decode(String.self, forKey: .type),
            basisPoints: try container.decodeIfPresent(Int.self, forKey: .basisPoints),
            amountMinor: try container.decodeIfPresent(Int.self, forKey: .amountMinor),
            currency: try container.decodeIfPresent(String.self, forKey: .currency),
            recurringRenewals: try container.decodeIfPresent(Int.self, forKey: .recurringRenewals))
        switch parsed {
        case .success(let rule): self = rule
        case .failure(let refusal):
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath,
                                                    debugDescription: refusal.message))
        }
    }

    /// Writes `type`, the members of that type, and `recurringRenewals`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .percent(let points):
            try container.encode("percent", forKey: .type)
            try container.encode(points, forKey: .basisPoints)
        case .fixed(let amount, let currency):
            try container.encode("fixed", forKey: .type)
            try container.encode(amount, forKey: .amountMinor)
            try container.encode(currency, forKey: .currency)
        }
        try container.encode(recurringRenewals, forKey: .recurringRenewals)
    }
}
