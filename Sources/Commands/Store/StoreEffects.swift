import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Applies a verified store notification's effect to the org's payments, inside the notification's transaction.
struct StoreEffects {
    let org: UUID
    /// The project of the app the notification came to: a payment recorded from it belongs there.
    let projectId: String
    let store: NotificationStore
    /// Hex SHA-256 of the notification's body (a recorded payment's `bodyHash`).
    let bodyHash: String
    let effect: StoreEffect
    /// The buyer the notification names, when Handoff knows it.
    let guid: String?
    /// The `StoreNotificationReceived` event id the payment events name as their cause.
    let cause: UUID
    let now: Date

    /// Applies the effect; `stored` is the payment it is about as `StoreReads` read it (locked) in this transaction.
    func apply(org: PostgresValue, stored: StoreEntitlement.Stored?, metadata: EventMetadata,
               transaction: EventTransaction) throws {
        switch effect {
        case .none:
            return
        case .transfer(let from, let to):
            try transfer(from: from, to: to, org: org, metadata: metadata, transaction: transaction)
        case .activate(let purchase):
            try record(StoreEntitlement.decide(effect, stored: stored, guid: guid), metadata: metadata,
                       transaction: transaction)
            // A verified purchase confirms an app's purchase hint of the same order, known buyer or not.
            try ConversionMatch(org: self.org, projectId: projectId).confirm(
                .init(orderId: purchase.paymentId, source: store.rawValue, amount: purchase.amount,
                      currency: purchase.currency, productId: purchase.productId),
                metadata: metadata, transaction: transaction)
        case .expire, .revoke:
            try record(StoreEntitlement.decide(effect, stored: stored, guid: guid), metadata: metadata,
                       transaction: transaction)
        }
    }

    private func record(_ step: StoreEntitlement.Step?, metadata: EventMetadata, transaction: EventTransaction)
        throws
    {
        guard let step else { return }
        let causeId = cause.lowercasedText
        let paymentId: PaymentID
        let event: NewEvent
        switch step {
        case .record(let purchase, let guid):
            paymentId = purchase.paymentId
            event = try NewEvent(PaymentRecorded(
                paymentId: purchase.paymentId.text, guid: guid, projectId: projectId, amount: purchase.amount,
                currency: purchase.currency, productId: purchase.productId, entitlement: purchase.entitlement,
                expiresAt: purchase.expiresAt.map(PaymentFields.text), paywallId: nil,
                bodyHash: bodyHash, source: store.rawValue))
        case .renew(let id, let expiresAt):
            paymentId = id
            event = try NewEvent(PaymentRenewed(paymentId: id.text, expiresAt: PaymentFields.text(expiresAt),
                                                notificationEventId: causeId))
        case .expire(let id, let at):
            paymentId = id
            event = try NewEvent(PaymentExpired(paymentId: id.text, expiredAt: PaymentFields.text(at),
                                                notificationEventId: causeId))
        case .refund(let id, let at):
            paymentId = id
            event = try NewEvent(PaymentRefunded(paymentId: id.text, refundedAt: PaymentFields.text(at)))
        }
        try transaction.append(org: self.org, stream: PaymentStreams.payment(paymentId), expectedVersion: .any,
                               events: [event], metadata: metadata)
    }

    /// Moves every unrefunded payment of the `from` buyers to `to`, when `to` is a buyer of the org.
    private func transfer(from: [String], to: String, org: PostgresValue, metadata: EventMetadata,
                          transaction: EventTransaction) throws {
        let connection = transaction.connection
        guard try !connection.query("SELECT 1 FROM buyers WHERE org_id = $1::uuid AND guid = $2",
                                    [org, .text(to)]).rows.isEmpty else { return }
        let causeId = cause.lowercasedText
        for source in from.prefix(RevenueCatWebhook.maxIds) where source != to {
            let rows = try connection.query("""
                SELECT payment_id FROM payments
                WHERE org_id = $1::uuid AND guid = $2 AND refunded_at IS NULL ORDER BY payment_id FOR UPDATE
                """, [org, .text(source)]).rows
            for row in rows {
                let paymentId = try row.string("payment_id")
                guard case .success(let id) = PaymentID.parse(paymentId) else { continue }
                try transaction.append(
                    org: self.org, stream: PaymentStreams.payment(id), expectedVersion: .any,
                    events: [try NewEvent(PaymentTransferred(paymentId: paymentId, fromGuid: source, toGuid: to,
                                                             notificationEventId: causeId))],
                    metadata: metadata)
            }
        }
    }
}
