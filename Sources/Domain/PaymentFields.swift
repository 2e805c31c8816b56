import Foundation

/// The other fields of a payment (`POST /s2s/v1/payments`): currency, catalog ids and the RFC 3339 expiry.
public enum PaymentFields {
    /// The letters of a currency code.
    public static let currencyLetters = ASCIISet("A-Z")
    /// A whole currency code: `^[A-Z]{3}$`.
    public static let currencyPattern = currencyLetters.pattern(lengths: 3...3)
    /// The largest `amount`: the largest 64-bit integer (the column is a Postgres `bigint`).
    public static let maxAmount = Int(Int64.max)

    /// ISO 4217 alphabetic code: exactly 3 uppercase ASCII letters (`EUR`, `USD`). Refusal `VALIDATION_CURRENCY_FORMAT`.
    public static func currency(_ text: String, field: String = "currency") -> Result<String, FieldRefusal> {
        guard text.utf8.count == 3, currencyLetters.containsAll(text) else {
            return .failure(FieldRefusal(field: field, code: .currencyFormat, rule: "be 3 uppercase letters (ISO 4217)"))
        }
        return .success(text)
    }

    /// `amount` in minor units: an integer ≥ 0. Refusal `VALIDATION_AMOUNT_FORMAT`.
    public static func amount(_ value: Int, field: String = "amount") -> Result<Int, FieldRefusal> {
        value >= 0 ? .success(value)
            : .failure(FieldRefusal(field: field, code: .amountFormat, rule: "be an integer ≥ 0 in minor units"))
    }

    /// `productId`, `entitlement`, `paywallId`: 1–128 characters of `A–Z a–z 0–9 . _ : -` (the payment id set), kept
    /// as given; refused with `code`.
    public static func catalogID(_ text: String, field: String, code: MachineCode) -> Result<String, FieldRefusal> {
        switch PaymentID.parse(text, field: field) {
        case .success(let id): return .success(id.text)
        case .failure: return .failure(FieldRefusal(field: field, code: code,
                                                    rule: "be 1–128 characters of A-Z a-z 0-9 . _ : -"))
        }
    }

    /// An RFC 3339 date-time by `RFC3339`'s rule (a real date in 1970–9999, `Z` or `±hh:mm`, optional fraction);
    /// refusal `VALIDATION_EXPIRES_AT_FORMAT`. The instant is kept to the millisecond.
    public static func rfc3339(_ text: String, field: String = "expiresAt") -> Result<Date, FieldRefusal> {
        guard let date = RFC3339.parse(text) else {
            return .failure(FieldRefusal(
                field: field, code: .expiresAtFormat,
                rule: "be an RFC 3339 date-time from 1970 to 9999 (after its offset) or null"))
        }
        return .success(date)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC: how the API writes instants.
    public static func text(_ date: Date) -> String { RFC3339.format(date) }
}
