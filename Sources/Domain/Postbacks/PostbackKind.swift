/// Which of Apple's ad-attribution frameworks sent a postback copy: the `{kind}` of `POST /v1/m/postbacks/{kind}/…`.
public enum PostbackKind: String, Sendable, CaseIterable, Codable {
    /// SKAdNetwork (StoreKit), versions 3 and 4: `attribution-signature` over the version's fields.
    case skan
    /// AdAttributionKit: a compact JWS (`jws-string`, ES256, key named by `kid`).
    case aak

    /// The one `{endpoint}` Apple posts copies to: `/.well-known/{skadnetwork|appattribution}/report-attribution/`.
    public static let endpoint = "report-attribution"
}
