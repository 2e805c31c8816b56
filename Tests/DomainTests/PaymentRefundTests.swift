import Domain
import Foundation
import Testing

struct PaymentRefundTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.5)

    @Test func anUnknownPaymentIsNotFound() {
        #expect(PaymentRefund.decide(nil, now: Self.now) == .failure(Refusal(
            kind: .notFound, code: .notFound, field: "paymentId", message: "no payment with this paymentId")))
    }

    @Test func aPaymentNeverRefundedIsRefundedNowInUTCWithMilliseconds() {
        #expect(PaymentRefund.decide(PaymentRefund.Stored(entitlement: "pro", refundedAt: nil), now: Self.now)
            == .success(.refund(at: "2027-01-15T08:00:00.500Z")))
    }

    @Test func anAlreadyRefundedPaymentAnswersItsFirstRefundInstant() {
        #expect(PaymentRefund.decide(PaymentRefund.Stored(entitlement: "pro", refundedAt: "2026-12-01T10:00:00.000Z"),
                                     now: Self.now) == .success(.alreadyRefunded(at: "2026-12-01T10:00:00.000Z")))
    }
}
