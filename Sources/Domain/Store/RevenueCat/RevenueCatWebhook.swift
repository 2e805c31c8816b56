import Foundation

/// A RevenueCat webhook body, `{"api_version":"1.0","event":{…}}`, reduced to what Handoff uses.
///
/// Field names are RevenueCat's (docs: "Webhooks → Event fields"). Every field but `event.id` and `event.type` is
/// optional, since event types carry different subsets.
public struct RevenueCatWebhook: Sendable, Equatable {
    /// The largest `event.id` / `event.type` / id string accepted.
    public static let maxIdentifierLength = 256
    /// The most ids in `aliases`, `transferred_from` or `transferred_to`.
    public static let maxIds = 100

    public struct Event: Sendable, Equatable, Decodable {
        public var id: String
        public var type: String
        public var appUserId: String?
        public var originalAppUserId: String?
        public var aliases: [String]?
        public var productId: String?
        public var entitlementIds: [String]?
        public var entitlementId: String?
        public var purchasedAtMs: Int64?
        public var expirationAtMs: Int64?
        public var eventTimestampMs: Int64?
        public var environment: String?
        public var store: String?
        public var transactionId: String?
        public var originalTransactionId: String?
        public var priceInPurchasedCurrency: Double?
        public var currency: String?
        public var cancelReason: String?
        public var transferredFrom: [String]?
        public var transferredTo: [String]?

        enum CodingKeys: String, CodingKey {
            case id, type, aliases, environment, store, currency
            case appUserId = "app_user_id", originalAppUserId = "original_app_user_id", productId = "product_id"
            case entitlementIds = "entitlement_ids", entitlementId = "entitlement_id"
            case purchasedAtMs = "purchased_at_ms", expirationAtMs = "expiration_at_ms"
            case eventTimestampMs = "event_timestamp_ms", transactionId = "transaction_id"
            case originalTransactionId = "original_transaction_id"
            case priceInPurchasedCurrency = "price_in_purchased_currency", cancelReason = "cancel_reason"
            case transferredFrom = "transferred_from", transferredTo = "transferred_to"
        }
    }

    private struct Envelope: Decodable {
        var event: Event
    }

    public var event: Event

    /// Parses a webhook body; `.malformed` names what is wrong.
    public static func parse(_ body: [UInt8]) -> Result<RevenueCatWebhook, IntakeFailure> {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(body))
        } catch {
            return .failure(.malformed("the body is not a RevenueCat webhook: field 'event' with 'id' and 'type'"))
        }
        let event = envelope.event
        let identifiers = [event.id, event.type] + [event.appUserId, event.originalAppUserId, event.productId,
                                                     event.transactionId, event.originalTransactionId].compactMap { $0 }
        guard !event.id.isEmpty, !event.type.isEmpty,
              identifiers.allSatisfy({ $0.utf8.count <= maxIdentifierLength }) else {
            return .failure(.malformed("field 'event.id' or another id is empty or too long"))
        }
        for list in [event.aliases, event.transferredFrom, event.transferredTo, event.entitlementIds] {
            guard let list else { continue }
            guard list.count <= maxIds, list.allSatisfy({ $0.utf8.count <= maxIdentifierLength }) else {
                return .failure(.malformed("an id list of field 'event' is too long"))
            }
        }
        return .success(RevenueCatWebhook(event: event))
    }

    /// The ids that may name the buyer, in order: `app_user_id`, `original_app_user_id`, then `aliases`.
    public var buyerCandidates: [String] {
        var seen: Set<String> = []
        return ([event.appUserId, event.originalAppUserId].compactMap { $0 } + (event.aliases ?? []))
            .filter { seen.insert($0).inserted }
    }

    /// `PRODUCTION` / `SANDBOX` as sent.
    public var environment: String? { event.environment }

    /// The entitlement change this event means (docs/store-notifications.md, "RevenueCat"). `digest` is hex SHA-256,
    /// for store ids that are not valid payment ids; `now` stands in for a missing event time.
    public func effect(now: Date, digest: (String) -> String) -> StoreEffect {
        let at = event.eventTimestampMs.map(Self.date) ?? now
        switch event.type {
        case "INITIAL_PURCHASE", "RENEWAL", "NON_RENEWING_PURCHASE", "UNCANCELLATION":
            guard let purchase = purchase(digest: digest) else { return .none }
            return .activate(purchase)
        case "EXPIRATION":
            guard let id = paymentID(digest: digest) else { return .none }
            return .expire(paymentId: id, at: event.expirationAtMs.map(Self.date) ?? at)
        case "CANCELLATION" where event.cancelReason == "CUSTOMER_SUPPORT":
            guard let id = paymentID(digest: digest) else { return .none }
            return .revoke(paymentId: id, at: at)
        case "TRANSFER":
            guard let to = event.transferredTo?.first, let from = event.transferredFrom, !from.isEmpty else {
                return .none
            }
            return .transfer(from: from, to: to)
        default:
            return .none
        }
    }

    /// The payment id: `transaction_id` for a non-renewing purchase, else `original_transaction_id` (falling back to
    /// `transaction_id`).
    func paymentID(digest: (String) -> String) -> PaymentID? {
        let text = event.type == "NON_RENEWING_PURCHASE"
            ? event.transactionId : (event.originalTransactionId ?? event.transactionId)
        return text.flatMap { StorePurchase.paymentID($0, store: .revenuecat, digest: digest) }
    }

    func purchase(digest: (String) -> String) -> StorePurchase? {
        guard let id = paymentID(digest: digest), let product = event.productId, !product.isEmpty else { return nil }
        var currency = StorePurchase.unknownCurrency
        var amount = 0
        if let code = event.currency, code.utf8.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }),
           let price = event.priceInPurchasedCurrency, let units = StorePurchase.minorUnits(price, currency: code) {
            currency = code
            amount = units
        }
        let entitlement = event.entitlementIds?.first ?? event.entitlementId ?? product
        return StorePurchase(paymentId: id, productId: product, entitlement: entitlement, amount: amount,
                             currency: currency, expiresAt: event.expirationAtMs.map(Self.date))
    }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
