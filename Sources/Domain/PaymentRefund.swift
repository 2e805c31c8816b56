import Foundation

/// The decider of `POST /s2s/v1/payments/{paymentId}/refund`: refund once, answer the first refund on repeats.
///
/// The shell reads the organization's payment under the id (under a row lock) and passes the service clock as
/// `now`. Instants are RFC 3339 text in UTC with milliseconds (`PaymentFields.text`), as stored and answered.
public enum PaymentRefund {
    /// A recorded payment, as the refund reads it.
    public struct Stored: Sendable, Equatable {
        /// The entitlement the payment grants (answered with the refund).
        public var entitlement: String
        /// When it was refunded, as RFC 3339 text; nil while it was never refunded.
        public var refundedAt: String?

        public init(entitlement: String, refundedAt: String?) {
            self.entitlement = entitlement
            self.refundedAt = refundedAt
        }
    }

    /// The outcome of a refund request.
    public enum Decision: Sendable, Equatable {
        /// Record `PaymentRefunded` at this instant.
        case refund(at: String)
        /// Already refunded at this instant: record nothing, answer it again.
        case alreadyRefunded(at: String)
    }

    /// Decides refunding `stored` (nil = this organization never recorded the payment) at `now`; nil is 404
    /// `NOT_FOUND` about `paymentId`.
    public static func decide(_ stored: Stored?, now: Date) -> Result<Decision, Refusal> {
        guard let stored else { return .failure(.notFound("no payment with this paymentId", field: "paymentId")) }
        if let refundedAt = stored.refundedAt { return .success(.alreadyRefunded(at: refundedAt)) }
        return .success(.refund(at: PaymentFields.text(now)))
    }
}
