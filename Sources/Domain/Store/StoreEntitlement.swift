import Foundation

/// The decider of a store notification's effect on one payment: which payment event, if any, follows.
///
/// The shell reads the payment under the effect's id (under a row lock) and the buyer the notification names; the
/// decider never records a payment for an unknown buyer, never undoes a refund, and never moves an expiry backwards
/// on a renewal.
public enum StoreEntitlement {
    /// A recorded payment as the decider sees it.
    public struct Stored: Sendable, Equatable {
        public var guid: String
        public var expiresAt: Date?
        public var refunded: Bool

        public init(guid: String, expiresAt: Date?, refunded: Bool) {
            self.guid = guid
            self.expiresAt = expiresAt
            self.refunded = refunded
        }
    }

    /// The event to record.
    public enum Step: Sendable, Equatable {
        /// A new payment for `guid`.
        case record(StorePurchase, guid: String)
        case renew(paymentId: PaymentID, expiresAt: Date)
        case expire(paymentId: PaymentID, at: Date)
        case refund(paymentId: PaymentID, at: Date)
    }

    /// The step for `effect` (not `.transfer`, which the shell splits per payment) given the stored payment and the
    /// buyer the notification names (nil = none Handoff knows).
    public static func decide(_ effect: StoreEffect, stored: Stored?, guid: String?) -> Step? {
        switch effect {
        case .activate(let purchase):
            guard let stored else { return guid.map { .record(purchase, guid: $0) } }
            guard !stored.refunded, let expiresAt = purchase.expiresAt else { return nil }
            if let current = stored.expiresAt, current >= expiresAt { return nil }
            return .renew(paymentId: purchase.paymentId, expiresAt: expiresAt)
        case .expire(let paymentId, let at):
            guard let stored, !stored.refunded else { return nil }
            if let current = stored.expiresAt, current <= at { return nil }
            return .expire(paymentId: paymentId, at: at)
        case .revoke(let paymentId, let at):
            guard let stored, !stored.refunded else { return nil }
            return .refund(paymentId: paymentId, at: at)
        case .transfer, .none:
            return nil
        }
    }
}
