import Domain
import Foundation
import HTTPClient
import Testing
@testable import Workers

/// The `google-play` job's pure parts: what an API answer makes of a notification, and which token endpoints a key
/// may name.
@Suite struct GooglePlayJobDecisionTests {
    typealias API = PlayDeveloperAPI
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let expiry = Date(timeIntervalSince1970: 1_760_000_000)
    static let id = PaymentID.parse("GPA.1234-5678-9012-34567").successValue!

    static func item(_ product: String, order: String?, price: API.Price? = nil, expiry: Date? = expiry)
        -> API.SubscriptionPurchase.LineItem
    {
        .init(productId: product, expiryTime: expiry, latestSuccessfulOrderId: order, recurringPrice: price,
              autoRenewEnabled: true)
    }

    static func subscription(buyer: String? = "guid-1", latestOrderId: String? = nil,
                             items: [API.SubscriptionPurchase.LineItem]) -> API.SubscriptionPurchase {
        .init(subscriptionState: "SUBSCRIPTION_STATE_ACTIVE", acknowledgementState: nil,
              obfuscatedExternalAccountId: buyer, latestOrderId: latestOrderId, startTime: nil,
              linkedPurchaseToken: nil, isTestPurchase: false, lineItems: items)
    }

    static func product(state: Int? = 0, order: String? = "GPA.1234-5678-9012-34567", micros: Int64? = nil,
                        currency: String? = nil) -> API.ProductPurchase {
        .init(purchaseState: state, orderId: order, obfuscatedExternalAccountId: "guid-2", productId: "coins",
              purchaseTime: nil, acknowledgementState: 1, quantity: 1, priceAmountMicros: micros,
              priceCurrencyCode: currency)
    }

    static func decide(_ type: Int, _ purchase: API.SubscriptionPurchase) -> GooglePlayJob.Decision {
        GooglePlayJob.decide(.subscription(token: "t", type: type, subscriptionId: "fallback"),
                             answer: .subscription(purchase), eventTime: now)
    }

    @Test func aSubscriptionTakesTheLineItemOfItsLatestOrderWithItsPriceInMinorUnits() {
        let price = API.Price(currencyCode: "EUR", units: 4, nanos: 490_000_000)
        let purchase = Self.subscription(items: [
            Self.item("addon", order: nil, expiry: Self.now),
            Self.item("monthly", order: "GPA.1234-5678-9012-34567..3", price: price),
        ])
        #expect(Self.decide(4, purchase) == GooglePlayJob.Decision(effect: .activate(StorePurchase(
            paymentId: Self.id, productId: "monthly", entitlement: "monthly", amount: 449, currency: "EUR",
            expiresAt: Self.expiry)), buyerId: "guid-1", reason: nil))
        // EXPIRED at the notification's time; REVOKED refunds at it; CANCELED changes nothing.
        #expect(Self.decide(13, purchase).effect == .expire(paymentId: Self.id, at: Self.now))
        #expect(Self.decide(12, purchase).effect == .revoke(paymentId: Self.id, at: Self.now))
        #expect(Self.decide(3, purchase)
            == GooglePlayJob.Decision(effect: .none, buyerId: "guid-1",
                                      reason: "subscription notification type 3 changes nothing"))
    }

    @Test func aSubscriptionWithoutOrderOrWithAnOddCurrencyIsHandledSafely() {
        // No successful order yet (a pending purchase): nothing to record.
        #expect(Self.decide(4, Self.subscription(items: [Self.item("monthly", order: nil)]))
            == GooglePlayJob.Decision(effect: .none, buyerId: "guid-1",
                                      reason: "the subscription names no order or product"))
        // The deprecated latestOrderId stands in; no line item: the notification's subscriptionId; no price: 0 XXX.
        guard case .activate(let bought) = Self.decide(4, Self.subscription(
            buyer: nil, latestOrderId: "GPA.1234-5678-9012-34567", items: [])).effect else {
            Issue.record("no activation")
            return
        }
        #expect(bought.productId == "fallback" && bought.amount == 0 && bought.currency == "XXX")
        #expect(bought.expiresAt == nil)
        // A currency payments cannot keep is not recorded as a price.
        let odd = API.Price(currencyCode: "usd", units: 1, nanos: 0)
        guard case .activate(let unpriced) = Self.decide(4, Self.subscription(
            items: [Self.item("m", order: "GPA.1234-5678-9012-34567", price: odd)])).effect else {
            Issue.record("no activation")
            return
        }
        #expect(unpriced.amount == 0 && unpriced.currency == "XXX")
    }

    @Test func aOneTimePurchaseCountsOnlyWhenPurchased() {
        func decide(_ type: Int, _ purchase: API.ProductPurchase) -> GooglePlayJob.Decision {
            GooglePlayJob.decide(.product(sku: "sku", token: "t", type: type), answer: .product(purchase),
                                 eventTime: Self.now)
        }
        #expect(decide(1, Self.product(micros: 1_990_000, currency: "USD")).effect == .activate(StorePurchase(
            paymentId: Self.id, productId: "coins", entitlement: "coins", amount: 199, currency: "USD",
            expiresAt: nil)))
        #expect(decide(1, Self.product(state: 2)).reason == "the purchase is not in the purchased state")
        #expect(decide(1, Self.product(state: 1)).effect == .none)
        #expect(decide(1, Self.product(order: nil)).reason == "the purchase names no order")
        #expect(decide(2, Self.product()).effect == .none)
        // An answer of the other kind (cannot happen; refused all the same).
        #expect(GooglePlayJob.decide(.product(sku: "s", token: "t", type: 1),
                                     answer: .subscription(Self.subscription(items: [])), eventTime: Self.now).effect
            == .none)
    }

    @Test func microsBecomeMinorUnitsOfTheCurrency() {
        #expect(GooglePlayJob.minorUnits(micros: 9_990_000, currency: "USD") == 999)
        #expect(GooglePlayJob.minorUnits(micros: 480_000_000, currency: "JPY") == 480)
        #expect(GooglePlayJob.minorUnits(micros: 1_234_500, currency: "KWD") == 1235)
        #expect(GooglePlayJob.minorUnits(micros: 5_000, currency: "USD") == 1)
        #expect(GooglePlayJob.minorUnits(micros: 4_999, currency: "USD") == 0)
        #expect(GooglePlayJob.minorUnits(micros: -1, currency: "USD") == nil)
        #expect(GooglePlayJob.minorUnits(micros: Int64.max, currency: "KWD") == nil)
    }

    @Test func aKeyMayNameOnlyGooglesTokenEndpointsOrTheAPIsOwnOrigin() {
        let google = GooglePlayJobSettings(apps: nil).clients
        #expect(google.tokenURIAllowed("https://oauth2.googleapis.com/token"))
        #expect(google.tokenURIAllowed("https://accounts.google.com/o/oauth2/token"))
        #expect(google.tokenURIAllowed("https://androidpublisher.googleapis.com:443/token"))
        for refused in ["https://oauth2.example.com/token", "http://oauth2.googleapis.com/token",
                        "https://oauth2.googleapis.com.evil.test/token", "http://127.0.0.1:8080/token",
                        "https://user@androidpublisher.googleapis.com/token", "not a url"] {
            #expect(!google.tokenURIAllowed(refused), "\(refused)")
        }
        let standIn = GooglePlayJobSettings(apps: nil, baseURL: "http://127.0.0.1:8080").clients
        #expect(standIn.tokenURIAllowed("http://127.0.0.1:8080/token"))
        #expect(!standIn.tokenURIAllowed("http://127.0.0.1:8081/token"))
        #expect(!standIn.tokenURIAllowed("http://127.0.0.2:8080/token"))
    }

    @Test func aKeyThatDoesNotParseMakesNoClient() {
        let clients = GooglePlayJobSettings(apps: nil).clients
        guard case .failure(let refusal) = clients.client(keyJSON: #"{"type":"service_account"}"#) else {
            Issue.record("a client for a broken key")
            return
        }
        #expect(refusal.reason == "the app's service-account key is not usable: the key file has no client_email")
    }
}

extension Result {
    fileprivate var successValue: Success? { if case .success(let value) = self { value } else { nil } }
}
