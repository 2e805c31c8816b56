/// The write-only secrets of an app: kept only sealed for the app (subject `app:<appId>`), never answered (`{"set":
/// true}` where a reader needs to know one is there).
///
/// The raw value is the JSON field of the S2S bodies and events, and the personal-data field each is sealed under.
public enum AppSecretKind: String, Hashable, Sendable, CaseIterable {
    /// What RevenueCat sends as `Authorization` with every webhook (compared in constant time).
    case revenuecatSecret
    /// The `aud` a Google Pub/Sub push's OIDC token must carry (default: the store URL itself).
    case googlePushAudience
    /// The service account e-mail Pub/Sub signs push tokens as; without it Google notifications are not verified.
    case googlePushServiceAccount
    /// The Google Cloud service-account key (its JSON key file) for the Play Developer API.
    case googleServiceAccountKey
    /// Meta's "Install Referrer Decryption Key" (64 hex digits, kept lowercase): decrypts the Meta Install Referrer in
    /// a Play referrer's `utm_content` (`POST /v1/m/install`).
    case metaInstallReferrerKey

    /// The personal-data field the secret is sealed under.
    public var personalDataField: PersonalDataField { PersonalDataField(rawValue: rawValue) }

    /// The `handoff admin app` flag that sets it.
    public var flag: String {
        switch self {
        case .revenuecatSecret: "--revenuecat-secret"
        case .googlePushAudience: "--google-push-audience"
        case .googlePushServiceAccount: "--google-push-service-account"
        case .googleServiceAccountKey: "--google-service-account-key"
        case .metaInstallReferrerKey: "--meta-install-referrer-key"
        }
    }

    /// Checks a plain secret and returns the text to seal: refuses with `VALIDATION_SECRET_FORMAT` (or, for the
    /// service account, `VALIDATION_EMAIL_FORMAT`; for the key, `VALIDATION_SERVICE_ACCOUNT_KEY_FORMAT`) naming
    /// `field`. The Meta key is kept lowercase. The key is given as its JSON text and sealed as `GoogleServiceAccountKey.jsonText`.
    public func parse(_ text: String, field: String) -> Result<String, FieldRefusal> {
        switch self {
        case .revenuecatSecret: return SecretText.header.parse(text, field: field)
        case .googlePushAudience: return SecretText.token.parse(text, field: field)
        case .googlePushServiceAccount: return EmailAddress.parse(text, field: field).map(\.text)
        case .googleServiceAccountKey:
            return GoogleServiceAccountKey.parse(jsonText: text, field: field).map(\.jsonText)
        case .metaInstallReferrerKey:
            let hex = { (byte: UInt8) in ASCII.isDigit(byte) || (0x61...0x66).contains(byte | 0x20) }
            guard text.utf8.count == 64, text.utf8.allSatisfy(hex) else {
                return .failure(FieldRefusal(field: field, code: .secretFormat, rule: "be 64 hexadecimal digits"))
            }
            return .success(text.lowercased())
        }
    }
}

/// The shapes of secrets given as text: what may be put in a header or compared as a token.
public enum SecretText: Sendable {
    /// Printable ASCII and spaces, not at either end (an `Authorization` value such as `Bearer abc`), 1–512.
    case header
    /// Printable ASCII without spaces (an audience, an HMAC secret), 1–512.
    case token

    /// The most characters a secret may have.
    public static let maxLength = 512

    /// The whole rule as a regular expression (lengths in `maxLength`).
    public var pattern: String {
        switch self {
        case .header: "^[!-~](?:[ -~]*[!-~])?$"
        case .token: "^[!-~]+$"
        }
    }

    /// Checks `text`; refuses with `VALIDATION_SECRET_FORMAT` naming `field` (never echoing the value).
    public func parse(_ text: String, field: String) -> Result<String, FieldRefusal> {
        let bytes = Array(text.utf8)
        let visible = { (byte: UInt8) in (0x21...0x7E).contains(byte) }
        let fits: Bool
        switch self {
        case .header:
            fits = bytes.allSatisfy { $0 == 0x20 || visible($0) } && bytes.first.map(visible) == true
                && bytes.last.map(visible) == true
        case .token:
            fits = !bytes.isEmpty && bytes.allSatisfy(visible)
        }
        guard fits, bytes.count <= Self.maxLength else {
            let rule = self == .header
                ? "be 1–\(Self.maxLength) printable ASCII characters, spaces only between others"
                : "be 1–\(Self.maxLength) printable ASCII characters without spaces"
            return .failure(FieldRefusal(field: field, code: .secretFormat, rule: rule))
        }
        return .success(text)
    }
}
