/// A purchase was voided: refunded, charged back or canceled (`voidedPurchaseNotification`).
public struct VoidedPurchaseNotification: Hashable, Sendable {
    /// The voided purchase's token.
    public let purchaseToken: String
    /// The order id of the voided transaction.
    public let orderId: String
    /// Whether a subscription or a one-time product was voided.
    public let productType: VoidedPurchaseProductType
    /// Full or partial (quantity-based) refund; absent in notifications from before Google added it.
    public let refundType: VoidedPurchaseRefundType?

    public init(purchaseToken: String, orderId: String, productType: VoidedPurchaseProductType,
                refundType: VoidedPurchaseRefundType?) {
        self.purchaseToken = purchaseToken
        self.orderId = orderId
        self.productType = productType
        self.refundType = refundType
    }
}
