import Foundation

/// The other fields of a payment (`POST /s2s/v1/payments`): currency, catalog ids and the RFC 3339 expiry.
public enum PaymentFields {
    /// ISO 4217 alphabetic code: exactly 3 uppercase ASCII letters (`EUR`, `USD`). Refusal `VALIDATION_CURRENCY_FORMAT`.
    public static func currency(_ text: String, field: String = "currency") -> Result<String, FieldRefusal> {
        let bytes = Array(text.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
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

    /// An RFC 3339 date-time with a `Z` or `±hh:mm` offset and optional fractional seconds; refusal
    /// `VALIDATION_EXPIRES_AT_FORMAT`. The instant is kept to the millisecond.
    public static func rfc3339(_ text: String, field: String = "expiresAt") -> Result<Date, FieldRefusal> {
        let refusal = FieldRefusal(field: field, code: .expiresAtFormat,
                                   rule: "be an RFC 3339 date-time from 1970 to 9999 (after its offset) or null")
        guard text.utf8.count <= 40, text.utf8.count >= 20 else { return .failure(refusal) }
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        guard let date = plain.date(from: text) ?? withFraction.date(from: text),
              (0..<latestInstant).contains(date.timeIntervalSince1970) else { return .failure(refusal) }
        return .success(Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000))
    }

    /// 10000-01-01T00:00:00Z in seconds since 1970: the first instant that is not in the years 1970–9999 (an offset
    /// such as `9999-12-31T23:59:59-23:59` would otherwise store a year-10000 expiry).
    static let latestInstant: TimeInterval = 253_402_300_800

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC: how the API writes instants.
    public static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
