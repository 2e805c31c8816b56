import Foundation

extension PlayDeveloperAPI {
    /// What `purchases.products.get` says about a one-time product purchase (the `ProductPurchase` fields Handoff
    /// uses).
    public struct ProductPurchase: Equatable, Sendable {
        /// `purchaseState`: 0 purchased, 1 canceled, 2 pending.
        public let purchaseState: Int?
        /// `orderId`.
        public let orderId: String?
        /// `obfuscatedExternalAccountId`: what the app set at purchase (Handoff's guid).
        public let obfuscatedExternalAccountId: String?
        /// `productId`.
        public let productId: String?
        /// `purchaseTimeMillis`.
        public let purchaseTime: Date?
        /// `acknowledgementState`: 0 not yet, 1 acknowledged.
        public let acknowledgementState: Int?
        /// `quantity` (1 when absent).
        public let quantity: Int
        /// `priceAmountMicros` and `priceCurrencyCode`, when the answer carries them (`products.get` does not say the
        /// price today; the fields are read in case it does).
        public let priceAmountMicros: Int64?
        public let priceCurrencyCode: String?

        /// `purchaseState` values.
        public static let purchased = 0, canceled = 1, pending = 2

        public init(purchaseState: Int?, orderId: String?, obfuscatedExternalAccountId: String?, productId: String?,
                    purchaseTime: Date?, acknowledgementState: Int?, quantity: Int, priceAmountMicros: Int64?,
                    priceCurrencyCode: String?) {
            self.purchaseState = purchaseState
            self.orderId = orderId
            self.obfuscatedExternalAccountId = obfuscatedExternalAccountId
            self.productId = productId
            self.purchaseTime = purchaseTime
            self.acknowledgementState = acknowledgementState
            self.quantity = quantity
            self.priceAmountMicros = priceAmountMicros
            self.priceCurrencyCode = priceCurrencyCode
        }

        /// The purchase in a 200 answer's body, or a malformed-response failure naming the field.
        static func parse(_ body: [UInt8]) -> Result<ProductPurchase, Failure> {
            PlayDeveloperAPI.decode(Wire.self, body).map(\.value)
        }

        private struct Wire: Decodable {
            let value: ProductPurchase

            enum CodingKeys: String, CodingKey {
                case purchaseState, orderId, obfuscatedExternalAccountId, productId, purchaseTimeMillis
                case acknowledgementState, quantity, priceAmountMicros, priceCurrencyCode
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let millis = try PlayDeveloperAPI.int64(container, .purchaseTimeMillis)
                value = ProductPurchase(
                    purchaseState: try container.decodeIfPresent(Int.self, forKey: .purchaseState),
                    orderId: try container.decodeIfPresent(String.self, forKey: .orderId),
                    obfuscatedExternalAccountId: try container.decodeIfPresent(
                        String.self, forKey: .obfuscatedExternalAccountId),
                    productId: try container.decodeIfPresent(String.self, forKey: .productId),
                    purchaseTime: millis.map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) },
                    acknowledgementState: try container.decodeIfPresent(Int.self, forKey: .acknowledgementState),
                    quantity: try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1,
                    priceAmountMicros: try PlayDeveloperAPI.int64(container, .priceAmountMicros),
                    priceCurrencyCode: try container.decodeIfPresent(String.self, forKey: .priceCurrencyCode))
            }
        }
    }
}
