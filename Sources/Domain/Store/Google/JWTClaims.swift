import Foundation

/// The claims of an OIDC identity token that a Pub/Sub push verifier judges (RFC 7519 §4.1, OpenID Connect Core §2).
///
/// Every claim is optional here; `GooglePushTokenRule` decides which must be present. Instants are whole or
/// fractional seconds since 1970 (NumericDate), from 1970 to 9999.
public struct JWTClaims: Hashable, Sendable, Decodable {
    /// `iss`.
    public let issuer: String?
    /// `aud`: one string, or an array of them (RFC 7519 allows both).
    public let audiences: [String]
    /// `email` (the service account a Pub/Sub push is signed for).
    public let email: String?
    /// `email_verified`: a JSON boolean (the text `"true"`/`"false"` is taken too, as some Google tokens spell it).
    public let emailVerified: Bool?
    /// `exp`.
    public let expiresAt: Date?
    /// `iat`.
    public let issuedAt: Date?
    /// `sub`.
    public let subject: String?

    public init(issuer: String?, audiences: [String], email: String?, emailVerified: Bool?, expiresAt: Date?,
                issuedAt: Date?, subject: String?) {
        self.issuer = issuer
        self.audiences = audiences
        self.email = email
        self.emailVerified = emailVerified
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.subject = subject
    }

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", audiences = "aud", email, emailVerified = "email_verified", expiresAt = "exp"
        case issuedAt = "iat", subject = "sub"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        if let single = try? container.decodeIfPresent(String.self, forKey: .audiences) {
            audiences = [single]
        } else {
            audiences = try container.decodeIfPresent([String].self, forKey: .audiences) ?? []
        }
        email = try container.decodeIfPresent(String.self, forKey: .email)
        if let text = try? container.decodeIfPresent(String.self, forKey: .emailVerified) {
            try container.googleCheck(text == "true" || text == "false", .emailVerified, "be a boolean")
            emailVerified = text == "true"
        } else {
            emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        }
        expiresAt = try Self.instant(container, .expiresAt)
        issuedAt = try Self.instant(container, .issuedAt)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
    }

    private static func instant(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        try container.googleCheck(seconds.isFinite && (0...253_402_300_799).contains(seconds), key,
                                  "be seconds since 1970 before the year 10000")
        return Date(timeIntervalSince1970: seconds)
    }
}
