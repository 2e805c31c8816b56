import Domain
import EventStore
import Foundation
import Postgres

/// Refunds a payment (`POST /s2s/v1/payments/{paymentId}/refund`): one `PaymentRefunded`, the first time only
/// (`PaymentRefund.decide`). Refuses 404 for a payment the org never recorded.
public struct RefundPayment: Sendable {
    /// The refunded payment's entitlement and the refund instant (the first refund's on a repeat).
    public struct Refunded: Sendable, Equatable {
        public var entitlement: String
        public var refundedAt: String
    }

    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Refunds `paymentId` of `org` at `now`.
    public func run(_ paymentId: PaymentID, org: OrgID, now: Date, metadata: EventMetadata) throws -> Refunded {
        try log.transact(in: .org(org.uuid)) { transaction in
            var stored: PaymentRefund.Stored?
            if let row = try transaction.connection.query("""
                SELECT entitlement,
                    to_char(refunded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS refunded_at
                FROM payments WHERE org_id = $1::uuid AND payment_id = $2 FOR UPDATE
                """, [.text(org.description), .text(paymentId.text)]).rows.first {
                stored = .init(entitlement: try row.string("entitlement"), refundedAt: row["refunded_at"])
            }
            switch PaymentRefund.decide(stored, now: now) {
            case .failure(let refusal):
                throw refusal
            case .success(.alreadyRefunded(let at)):
                return Refunded(entitlement: stored?.entitlement ?? "", refundedAt: at)
            case .success(.refund(let at)):
                try transaction.append(
                    org: org.uuid, stream: PaymentStreams.payment(paymentId), expectedVersion: .any,
                    events: [try NewEvent(PaymentRefunded(paymentId: paymentId.text, refundedAt: at))],
                    metadata: metadata)
                return Refunded(entitlement: stored?.entitlement ?? "", refundedAt: at)
            }
        }
    }
}
