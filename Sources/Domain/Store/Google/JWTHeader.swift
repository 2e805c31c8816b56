/// The JOSE header of a JWT: the fields a verifier needs.
public struct JWTHeader: Hashable, Sendable, Decodable {
    /// The signature algorithm (`RS256` for Google's OIDC tokens).
    public let algorithm: String
    /// The id of the signing key in the issuer's JWKS.
    public let keyID: String?
    /// The media type, `JWT` when present.
    public let type: String?

    public init(algorithm: String, keyID: String?, type: String?) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case algorithm = "alg", keyID = "kid", type = "typ", critical = "crit"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        algorithm = try container.decode(String.self, forKey: .algorithm)
        keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        try container.googleCheck(!container.contains(.critical), .critical, "be absent (no extension is understood)")
    }
}
