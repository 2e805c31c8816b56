#if canImport(StoreKit)
import StoreKit

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
extension Attribution {
    /// The purchase options that carry the account's `appAccountToken`: pass them to `Product.purchase(options:)`.
    /// Empty when no referral was bound; no network call, never throws.
    public func purchaseOptions() -> Set<Product.PurchaseOption> {
        guard let token = appAccountToken() else { return [] }
        return [.appAccountToken(token)]
    }
}
#endif
