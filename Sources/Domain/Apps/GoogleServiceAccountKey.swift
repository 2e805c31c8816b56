import Foundation

/// A Google Cloud service-account key, as the JSON key file Google Cloud issues (`"type":"service_account"`): what
/// the Play Developer API client signs its OAuth 2 JWT-bearer assertion with.
///
/// Only the key file's own members are taken, each a string: `type` (must be `service_account`), `private_key` (a
/// PKCS#8 PEM, `-----BEGIN PRIVATE KEY-----`), `client_email` (required), `token_uri` (an https URL, http only on
/// loopback; Google's token endpoint when absent), and the informational `project_id`, `private_key_id`,
/// `client_id`, `auth_uri`, `auth_provider_x509_cert_url`, `client_x509_cert_url`, `universe_domain` (1–512 printable
/// ASCII characters). Another member is refused: a misspelt one must not be silently dropped.
public struct GoogleServiceAccountKey: Hashable, Sendable {
    /// Every member a key file may have.
    public static let members = [
        "auth_provider_x509_cert_url", "auth_uri", "client_email", "client_id", "client_x509_cert_url",
        "private_key", "private_key_id", "project_id", "token_uri", "type", "universe_domain",
    ]
    /// The members a key must have.
    public static let requiredMembers = ["client_email", "private_key", "type"]
    /// The most characters of `private_key` (a 4096-bit RSA key is about 3300).
    public static let maxPrivateKeyLength = 8192
    /// A PKCS#8 private key in PEM, as key files carry it.
    public static let privateKeyPattern =
        "^-----BEGIN PRIVATE KEY-----\\n[A-Za-z0-9+/=\\n]+-----END PRIVATE KEY-----\\n?$"
    private static let privateKeyGrammar = WholeTextPattern(privateKeyPattern)

    /// The members as given (each checked).
    public let values: [String: String]

    private init(values: [String: String]) { self.values = values }

    /// The service account's e-mail (the JWT's `iss`).
    public var clientEmail: String { values["client_email"] ?? "" }
    /// The PKCS#8 PEM of the private key.
    public var privateKey: String { values["private_key"] ?? "" }
    /// The OAuth 2 token endpoint the key names, if any.
    public var tokenURI: String? { values["token_uri"] }

    /// The key as JSON text with sorted members: what is sealed for the app and what `parse(jsonText:)` reads back.
    public var jsonText: String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? JSONSerialization.data(withJSONObject: values, options: options)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses a key file's text (a JSON object of strings); refuses with `VALIDATION_SERVICE_ACCOUNT_KEY_FORMAT`
    /// naming `field` (or `field.member`).
    public static func parse(jsonText: String, field: String) -> Result<GoogleServiceAccountKey, FieldRefusal> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(jsonText.utf8)) as? [String: Any] else {
            return .failure(refusal(field, "be the JSON key file of a Google Cloud service account"))
        }
        var values: [String: String] = [:]
        for (name, value) in object {
            guard let text = value as? String else {
                return .failure(refusal(members.contains(name) ? "\(field).\(name)" : field,
                                        members.contains(name) ? "be a string" : "have only a key file's members"))
            }
            values[name] = text
        }
        return parse(members: values, field: field)
    }

    /// Checks the members of a key (from a JSON body); refuses with `VALIDATION_SERVICE_ACCOUNT_KEY_FORMAT` naming
    /// `field.member`, or `field` for a missing or unknown member.
    public static func parse(members values: [String: String], field: String)
        -> Result<GoogleServiceAccountKey, FieldRefusal>
    {
        if let unknown = values.keys.sorted().first(where: { !members.contains($0) }) {
            return .failure(refusal("\(field).\(unknown)", "not be given: it is not a member of a key file"))
        }
        for name in requiredMembers where values[name] == nil {
            return .failure(refusal("\(field).\(name)", "be given"))
        }
        for (name, text) in values.sorted(by: { $0.key < $1.key }) {
            let member = "\(field).\(name)"
            switch name {
            case "type":
                guard text == "service_account" else { return .failure(refusal(member, "be service_account")) }
            case "private_key":
                guard text.utf8.count <= maxPrivateKeyLength, privateKeyGrammar.matches(text) else {
                    return .failure(refusal(member, "be a PKCS#8 private key in PEM (BEGIN PRIVATE KEY)"))
                }
            case "client_email":
                guard case .success = EmailAddress.parse(text, field: member) else {
                    return .failure(refusal(member, "be the service account's e-mail address"))
                }
            case "token_uri":
                guard case .success = PaywallURL.parse(text, field: member) else {
                    return .failure(refusal(member, "be an https URL (http only for localhost)"))
                }
            default:
                guard case .success = SecretText.token.parse(text, field: member) else {
                    return .failure(refusal(member, "be 1–\(SecretText.maxLength) printable ASCII characters "
                                                + "without spaces"))
                }
            }
        }
        return .success(GoogleServiceAccountKey(values: values))
    }

    private static func refusal(_ field: String, _ rule: String) -> FieldRefusal {
        FieldRefusal(field: field, code: .serviceAccountKeyFormat, rule: rule)
    }
}
