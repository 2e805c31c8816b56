import Domain
import Foundation

extension GooglePlayJob {
    /// The Play Developer API call a notification needs.
    enum Query: Sendable, Equatable {
        /// `purchases.subscriptionsv2.get` for a `subscriptionNotification` of `type` (Google's number).
        case subscription(token: String, type: Int, subscriptionId: String?)
        /// `purchases.products.get` for a `oneTimeProductNotification` of `type`.
        case product(sku: String, token: String, type: Int)

        /// The query for `notification`, or nil for a kind that has none (voided purchases apply at intake; tests
        /// and unknown kinds change nothing).
        init?(_ notification: DeveloperNotification) {
            switch notification.kind {
            case .subscription(let subscription):
                self = .subscription(token: subscription.purchaseToken,
                                     type: subscription.notificationType.rawValue,
                                     subscriptionId: subscription.subscriptionId)
            case .oneTimeProduct(let product):
                self = .product(sku: product.sku, token: product.purchaseToken,
                                type: product.notificationType.rawValue)
            case .voidedPurchase, .test, .unrecognized:
                return nil
            }
        }
    }

    /// What the API answered.
    enum Answer: Sendable, Equatable {
        case subscription(PlayDeveloperAPI.SubscriptionPurchase)
        case product(PlayDeveloperAPI.ProductPurchase)
    }

    /// What a notification does, given the API's answer: the effect, and the id that names the buyer.
    struct Decision: Sendable, Equatable {
        var effect: StoreEffect
        /// `obfuscatedExternalAccountId`: the buyer's guid, when the app set it at purchase.
        var buyerId: String?
        /// Why there is no effect (for the job's outcome), when there is none.
        var reason: String?
    }

    /// The decision for `query` answered by `answer`; `eventTime` is the notification's `eventTimeMillis` (when an
    /// expiry or revocation took effect, fixed so that a retry decides the same).
    static func decide(_ query: Query, answer: Answer, eventTime: Date) -> Decision {
        switch (query, answer) {
        case (.subscription(_, let type, let subscriptionId), .subscription(let purchase)):
            let buyer = purchase.obfuscatedExternalAccountId
            guard let facts = Self.purchase(purchase, subscriptionId: subscriptionId) else {
                return Decision(effect: .none, buyerId: buyer, reason: "the subscription names no order or product")
            }
            let effect = PlayPurchaseEffect.subscription(notificationType: type, purchase: facts, now: eventTime)
            let reason = effect == StoreEffect.none ? "subscription notification type \(type) changes nothing" : nil
            return Decision(effect: effect, buyerId: buyer, reason: reason)
        case (.product(let sku, _, let type), .product(let purchase)):
            let buyer = purchase.obfuscatedExternalAccountId
            guard purchase.purchaseState == PlayDeveloperAPI.ProductPurchase.purchased else {
                return Decision(effect: .none, buyerId: buyer, reason: "the purchase is not in the purchased state")
            }
            guard let facts = Self.purchase(purchase, sku: sku) else {
                return Decision(effect: .none, buyerId: buyer, reason: "the purchase names no order")
            }
            let effect = PlayPurchaseEffect.oneTime(notificationType: type, purchase: facts)
            let reason = effect == StoreEffect.none
                ? "one-time product notification type \(type) changes nothing" : nil
            return Decision(effect: effect, buyerId: buyer, reason: reason)
        default:
            return Decision(effect: .none, buyerId: nil, reason: "the answer is not of the notification's kind")
        }
    }

    /// A subscription's facts: the latest successful order, the product and expiry of the line item that order
    /// belongs to (else the first), and that item's recurring price.
    static func purchase(_ subscription: PlayDeveloperAPI.SubscriptionPurchase, subscriptionId: String?)
        -> PlayPurchaseEffect.Purchase?
    {
        guard let orderId = subscription.orderId else { return nil }
        let item = subscription.lineItems.first { $0.latestSuccessfulOrderId == orderId }
            ?? subscription.lineItems.first
        guard let productId = item?.productId ?? subscriptionId, !productId.isEmpty else { return nil }
        let price = item?.recurringPrice
        let currency = price.flatMap { currencyCode($0.currencyCode) }
        let amount = currency.flatMap { code in price.flatMap { minorUnits(micros: $0.micros, currency: code) } }
        return PlayPurchaseEffect.Purchase(orderId: orderId, productId: productId,
                                           expiresAt: item?.expiryTime ?? subscription.expiryTime,
                                           amount: amount, currency: amount == nil ? nil : currency)
    }

    /// A one-time purchase's facts: its order, its product (else the notification's `sku`), its price when the
    /// answer names one (`products.get` does not today: 0 `XXX` is recorded then).
    static func purchase(_ product: PlayDeveloperAPI.ProductPurchase, sku: String) -> PlayPurchaseEffect.Purchase? {
        guard let orderId = product.orderId, !orderId.isEmpty else { return nil }
        let currency = product.priceCurrencyCode.flatMap(currencyCode)
        let amount = currency.flatMap { code in
            product.priceAmountMicros.flatMap { minorUnits(micros: $0, currency: code) }
        }
        return PlayPurchaseEffect.Purchase(orderId: orderId, productId: product.productId ?? sku, expiresAt: nil,
                                           amount: amount, currency: amount == nil ? nil : currency)
    }

    /// `code` when it is an ISO 4217 code as payments keep them (three upper-case letters).
    static func currencyCode(_ code: String) -> String? {
        code.utf8.count == 3 && code.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) ? code : nil
    }

    /// Minor units of `currency` from millionths of a unit (Google's micros: `9_990_000` USD → 999), rounded half up;
    /// nil for a negative or absurd amount.
    static func minorUnits(micros: Int64, currency: String) -> Int? {
        guard micros >= 0, micros < 1_000_000_000_000_000 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<MoneyText.decimals(currency) { scale *= 10 }
        return Int((micros * scale + 500_000) / 1_000_000)
    }
}
