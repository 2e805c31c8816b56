import Domain
import Foundation

extension PlayDeveloperAPI {
    /// What `purchases.subscriptionsv2.get` says about a subscription (the `SubscriptionPurchaseV2` fields Handoff
    /// uses; the rest of Google's answer is ignored).
    public struct SubscriptionPurchase: Equatable, Sendable {
        /// `subscriptionState`, e.g. `SUBSCRIPTION_STATE_ACTIVE`, `SUBSCRIPTION_STATE_EXPIRED`.
        public let subscriptionState: String?
        /// `acknowledgementState`: `ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED` or `…_PENDING`.
        public let acknowledgementState: String?
        /// `externalAccountIdentifiers.obfuscatedExternalAccountId`: what the app set at purchase (Handoff's guid).
        public let obfuscatedExternalAccountId: String?
        /// `latestOrderId` (deprecated by Google in favour of the line items' `latestSuccessfulOrderId`).
        public let latestOrderId: String?
        /// `startTime`.
        public let startTime: Date?
        /// `linkedPurchaseToken`: the token of the subscription this one replaced, if any.
        public let linkedPurchaseToken: String?
        /// True when `testPurchase` is present (a license tester's purchase).
        public let isTestPurchase: Bool
        /// `lineItems`: one per product of the subscription.
        public let lineItems: [LineItem]

        public init(subscriptionState: String?, acknowledgementState: String?, obfuscatedExternalAccountId: String?,
                    latestOrderId: String?, startTime: Date?, linkedPurchaseToken: String?, isTestPurchase: Bool,
                    lineItems: [LineItem]) {
            self.subscriptionState = subscriptionState
            self.acknowledgementState = acknowledgementState
            self.obfuscatedExternalAccountId = obfuscatedExternalAccountId
            self.latestOrderId = latestOrderId
            self.startTime = startTime
            self.linkedPurchaseToken = linkedPurchaseToken
            self.isTestPurchase = isTestPurchase
            self.lineItems = lineItems
        }

        /// The order id of the latest successful order: the first line item's `latestSuccessfulOrderId`, else
        /// `latestOrderId`.
        public var orderId: String? { lineItems.lazy.compactMap(\.latestSuccessfulOrderId).first ?? latestOrderId }

        /// The latest `expiryTime` of the line items.
        public var expiryTime: Date? { lineItems.compactMap(\.expiryTime).max() }

        /// One product of a subscription purchase.
        public struct LineItem: Equatable, Sendable {
            /// `productId`, e.g. `monthly001`.
            public let productId: String
            /// `expiryTime`: when access ends unless renewed.
            public let expiryTime: Date?
            /// `latestSuccessfulOrderId`.
            public let latestSuccessfulOrderId: String?
            /// `autoRenewingPlan.recurringPrice`, when the plan renews automatically.
            public let recurringPrice: Price?
            /// `autoRenewingPlan.autoRenewEnabled`.
            public let autoRenewEnabled: Bool?

            public init(productId: String, expiryTime: Date?, latestSuccessfulOrderId: String?, recurringPrice: Price?,
                        autoRenewEnabled: Bool?) {
                self.productId = productId
                self.expiryTime = expiryTime
                self.latestSuccessfulOrderId = latestSuccessfulOrderId
                self.recurringPrice = recurringPrice
                self.autoRenewEnabled = autoRenewEnabled
            }
        }

        /// The purchase in a 200 answer's body, or a malformed-response failure naming the field.
        static func parse(_ body: [UInt8]) -> Result<SubscriptionPurchase, Failure> {
            PlayDeveloperAPI.decode(Wire.self, body).map(\.value)
        }

        private struct Wire: Decodable {
            let value: SubscriptionPurchase

            enum CodingKeys: String, CodingKey {
                case subscriptionState, acknowledgementState, externalAccountIdentifiers, latestOrderId, startTime
                case linkedPurchaseToken, testPurchase, lineItems
            }

            enum AccountKeys: String, CodingKey { case obfuscatedExternalAccountId }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let account = try? container.nestedContainer(keyedBy: AccountKeys.self,
                                                             forKey: .externalAccountIdentifiers)
                value = SubscriptionPurchase(
                    subscriptionState: try container.decodeIfPresent(String.self, forKey: .subscriptionState),
                    acknowledgementState: try container.decodeIfPresent(String.self, forKey: .acknowledgementState),
                    obfuscatedExternalAccountId: try account?.decodeIfPresent(
                        String.self, forKey: .obfuscatedExternalAccountId),
                    latestOrderId: try container.decodeIfPresent(String.self, forKey: .latestOrderId),
                    startTime: try PlayDeveloperAPI.instant(container, .startTime),
                    linkedPurchaseToken: try container.decodeIfPresent(String.self, forKey: .linkedPurchaseToken),
                    isTestPurchase: container.contains(.testPurchase),
                    lineItems: try container.decodeIfPresent([LineItemWire].self, forKey: .lineItems)?.map(\.value)
                        ?? [])
            }
        }

        private struct LineItemWire: Decodable {
            let value: LineItem

            enum CodingKeys: String, CodingKey {
                case productId, expiryTime, latestSuccessfulOrderId, autoRenewingPlan
            }

            enum PlanKeys: String, CodingKey { case recurringPrice, autoRenewEnabled }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let plan = container.contains(.autoRenewingPlan)
                    ? try container.nestedContainer(keyedBy: PlanKeys.self, forKey: .autoRenewingPlan) : nil
                value = LineItem(
                    productId: try container.decode(String.self, forKey: .productId),
                    expiryTime: try PlayDeveloperAPI.instant(container, .expiryTime),
                    latestSuccessfulOrderId: try container.decodeIfPresent(
                        String.self, forKey: .latestSuccessfulOrderId),
                    recurringPrice: try plan?.decodeIfPresent(Price.self, forKey: .recurringPrice),
                    autoRenewEnabled: try plan?.decodeIfPresent(Bool.self, forKey: .autoRenewEnabled))
            }
        }
    }

    /// Google's `Money`: a currency and an amount as whole units plus nano units (`9` and `990000000` for 9.99).
    public struct Price: Equatable, Sendable, Decodable {
        /// ISO 4217 code, e.g. `USD`.
        public let currencyCode: String
        /// The whole units (sent as an int64 string).
        public let units: Int64
        /// Billionths of a unit, same sign as `units`.
        public let nanos: Int32

        public init(currencyCode: String, units: Int64, nanos: Int32) {
            self.currencyCode = currencyCode
            self.units = units
            self.nanos = nanos
        }

        /// The amount in millionths of a unit (Google's `priceAmountMicros` unit).
        public var micros: Int64 { units * 1_000_000 + Int64(nanos / 1000) }

        enum CodingKeys: String, CodingKey { case currencyCode, units, nanos }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            currencyCode = try container.decode(String.self, forKey: .currencyCode)
            units = try PlayDeveloperAPI.int64(container, .units) ?? 0
            nanos = try container.decodeIfPresent(Int32.self, forKey: .nanos) ?? 0
            guard (-999_999_999...999_999_999).contains(nanos), units.magnitude < 9_000_000_000_000 else {
                throw DecodingError.dataCorruptedError(forKey: .units, in: container,
                                                       debugDescription: "an amount out of range")
            }
        }
    }
}
