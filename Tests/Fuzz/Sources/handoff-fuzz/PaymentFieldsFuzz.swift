@testable import Domain
import Foundation

/// `payment-fields`: the bytes as the text fields of a payment (`PaymentFields.rfc3339` for `expiresAt`,
/// `currency`, `catalogID` for `productId`/`entitlement`/`paywallId`, `PaymentID`), and as a millisecond instant.
///
/// Properties: an accepted `expiresAt` lies in 1970–9999, has whole milliseconds, and prints (`PaymentFields.text`,
/// how the API writes instants) to text that parses to the same instant; any instant in range with whole
/// milliseconds survives print and parse; a currency is 3 uppercase ASCII letters; catalog ids and payment ids
/// accept the same texts and keep them as given.
enum PaymentFieldsFuzz {
    static let target = FuzzTarget(name: "payment-fields", maxLength: 128, run: run)

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let date) = PaymentFields.rfc3339(candidate) {
            checkInstant(date, source: candidate)
        }
        let milliseconds = material(bytes, count: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            % UInt64(RFC3339.latestInstant * 1000)
        let instant = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        checkInstant(instant, source: "\(milliseconds) ms")
        if case .success(let currency) = PaymentFields.currency(candidate) {
            check(currency == candidate && currency.utf8.count == 3
                      && currency.utf8.allSatisfy { (0x41...0x5A).contains($0) }, "currency '\(currency)'")
        }
        let catalog = try? PaymentFields.catalogID(candidate, field: "productId", code: .productIDFormat).get()
        let payment = try? PaymentID.parse(candidate).get()
        check(catalog == payment?.text, "catalog id \(catalog ?? "-") and payment id \(payment?.text ?? "-") differ")
        if let catalog { check(catalog == candidate, "catalog id '\(candidate)' kept as '\(catalog)'") }
    }

    private static func checkInstant(_ date: Date, source: String) {
        let seconds = date.timeIntervalSince1970
        check((0..<RFC3339.latestInstant).contains(seconds), "\(source): instant \(seconds) out of range")
        check(Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000) == date,
              "\(source): instant \(seconds) is not a whole millisecond")
        let printed = PaymentFields.text(date)
        let reparsed = try? PaymentFields.rfc3339(printed).get()
        check(reparsed == date, "\(source): \(seconds) prints as \(printed), which parses to "
                  + (reparsed.map { "\($0.timeIntervalSince1970)" } ?? "a refusal"))
    }
}
