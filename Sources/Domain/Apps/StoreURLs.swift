/// An app's three store URLs on the service's public base URL: where App Store Connect, Google Cloud Pub/Sub and
/// RevenueCat post (`<base>/v1/m/store/{apple|google|revenuecat}/<token>`).
public struct StoreURLs: Codable, Hashable, Sendable {
    public var apple: String
    public var google: String
    public var revenuecat: String

    /// The URLs of `token` under `base` (`PUBLIC_BASE_URL`; a trailing `/` is dropped).
    public init(base: String, token: StoreToken) {
        let root = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/v1/m/store/"
        apple = root + "apple/" + token.text
        google = root + "google/" + token.text
        revenuecat = root + "revenuecat/" + token.text
    }
}
