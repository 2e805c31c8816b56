/// The tenant's own id for a payment (`paymentId`), which makes recording a payment idempotent.
///
/// 1–128 characters of `A–Z a–z 0–9 . _ : -`: enough for Stripe (`pi_…`), Paddle (`txn_…`), App Store and
/// Google Play order ids (`GPA.1234-…`), and safe in a URL path segment (`/s2s/v1/payments/{paymentId}/refund`)
/// without escaping. Compared exactly (case matters); stored as given.
public struct PaymentID: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a payment id may have.
    public static let maxLength = 128
    /// The characters of a payment id (and of `productId`, `entitlement`, `paywallId`): `A–Z a–z 0–9 . _ : -`.
    public static let characters = ASCIISet("A-Za-z0-9._:-")
    /// A whole payment id: `^[A-Za-z0-9._:-]{1,128}$`.
    public static let pattern = characters.pattern(lengths: 1...maxLength)

    /// The id as the tenant sent it.
    public let text: String

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// Parses a payment id; refuses an empty, too long or out-of-set one with `VALIDATION_PAYMENT_ID_FORMAT`.
    public static func parse(_ text: String, field: String = "paymentId") -> Result<PaymentID, FieldRefusal> {
        let bytes = Array(text.utf8)
        guard (1...maxLength).contains(bytes.count), bytes.allSatisfy(characters.contains) else {
            return .failure(FieldRefusal(field: field, code: .paymentIDFormat,
                                         rule: "be 1–\(maxLength) characters of A-Z a-z 0-9 . _ : -"))
        }
        return .success(PaymentID(text: text))
    }
}
