import Domain
import Foundation
import Testing

/// Which payment an App Store transaction is (issue 14: `originalTransactionId` for subscriptions, `transactionId`
/// otherwise) and what its notification does.
struct AppleNotificationEffectTests {
    private func transaction(type: String?) throws -> AppleTransaction {
        var fields = [#""transactionId":"2000000777""#, #""originalTransactionId":"2000000100""#,
                      #""productId":"pro.monthly""#, #""expiresDate":1896134400000"#]
        if let type { fields.append(#""type":"\#(type)""#) }
        return try AppleTransaction.decode(Array("{\(fields.joined(separator: ","))}".utf8)).get()
    }

    @Test func aSubscriptionOfEitherKindIsItsOriginalTransactionAndAnythingElseItsOwn() throws {
        for type in ["Auto-Renewable Subscription", "Non-Renewing Subscription"] {
            #expect(AppleNotificationEffect.paymentID(try transaction(type: type))?.description == "2000000100",
                    "\(type)")
        }
        for type in ["Consumable", "Non-Consumable", nil] {
            #expect(AppleNotificationEffect.paymentID(try transaction(type: type))?.description == "2000000777",
                    "\(type ?? "no type")")
        }
    }

    /// The payment an effect is about, and what it does to it.
    private func described(_ effect: StoreEffect) -> String {
        switch effect {
        case .activate(let purchase): "activate \(purchase.paymentId) \(purchase.productId)"
        case .expire(let payment, _): "expire \(payment)"
        case .revoke(let payment, _): "revoke \(payment)"
        case .none: "none"
        case .transfer: "transfer"
        }
    }

    @Test func aRenewalActivatesARefundRevokesAnExpiryEndsAndATestChangesNothing() throws {
        let subscription = try transaction(type: "Auto-Renewable Subscription")
        let now = Date(timeIntervalSince1970: 1_893_456_000)
        let effect = { (type: String) in
            described(AppleNotificationEffect.effect(notificationType: type, transaction: subscription, signedAt: now,
                                                     now: now))
        }
        #expect(effect("DID_RENEW") == "activate 2000000100 pro.monthly")
        #expect(effect("REFUND") == "revoke 2000000100")
        #expect(effect("EXPIRED") == "expire 2000000100")
        #expect(effect("TEST") == "none")
    }
}
