import Domain

/// The field schemas of apps (issue 14), from the constants of their `Domain` parsers.
extension ContractFields {
    static let appId = JSONSchema.string(pattern: projectIdPattern, lengths: 36...36, format: "uuid")
        .example("5d0c9a4e-2b7f-4c1d-9e3a-8f6b1c2d3e4f")
    static let destinationId = JSONSchema.string(pattern: projectIdPattern, lengths: 36...36, format: "uuid")
        .example("8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d")
    private static let projectIdPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
        + "-[0-9A-Fa-f]{12}$"
    static let appPlatform = JSONSchema.enumeration(DevicePlatform.allCases.map(\.rawValue))
    static let appAppleId = JSONSchema.integer(minimum: 1, maximum: Int(Int64.max)).example(1_234_567_890)
        .described("the App Store's numeric app id (Apple ID of the app in App Store Connect)")
    static let forwardUrl = JSONSchema.string(pattern: AppForwardURL.pattern, lengths: 1...AppForwardURL.maxLength)
        .example("https://api.example.com/store-notifications")
        .described("http or https, a host, no user info or fragment; forwards are signed (x-x3-signature)")
    static let revenuecatSecret = JSONSchema.string(pattern: SecretText.header.pattern,
                                                    lengths: 1...SecretText.maxLength)
        .example("Bearer rc-webhook-secret")
        .described("the exact Authorization value RevenueCat sends; write-only")
    static let googlePushAudience = JSONSchema.string(pattern: SecretText.token.pattern,
                                                      lengths: 1...SecretText.maxLength)
        .example("https://handoff.example.com/v1/m/store/google")
        .described("the aud of the Pub/Sub push token (default: the store URL); write-only")
    static let metaInstallReferrerKey = JSONSchema.string(pattern: "^[0-9A-Fa-f]{64}$", lengths: 64...64)
        .example("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0")
        .described("Meta's Install Referrer Decryption Key (64 hex digits); write-only")
    static let googlePushServiceAccount = email.described("the service account Pub/Sub signs pushes as; write-only")
    static let destinationScheme = JSONSchema.enumeration(DestinationScheme.allCases.map(\.rawValue))
    static let destinationSecret = JSONSchema.string(pattern: SecretText.token.pattern,
                                                     lengths: 1...SecretText.maxLength)
        .example("whsec-3f9a").described("the destination's signing secret; write-only")

    /// A Google Cloud service-account key file, member by member (`GoogleServiceAccountKey`).
    static let serviceAccountKey: JSONSchema = {
        let text = JSONSchema.string(pattern: SecretText.token.pattern, lengths: 1...SecretText.maxLength)
        var properties: [JSONSchema.Property] = [
            .required("type", .constant("service_account")),
            .required("private_key", .string(pattern: GoogleServiceAccountKey.privateKeyPattern,
                                             lengths: 1...GoogleServiceAccountKey.maxPrivateKeyLength)),
            .required("client_email", email),
            .optional("token_uri", url),
        ]
        for member in GoogleServiceAccountKey.members where !properties.contains(where: { $0.name == member }) {
            properties.append(.optional(member, text))
        }
        return JSONSchema.object(properties)
            .described("the JSON key file of a Google Cloud service account, for the Play Developer API; write-only "
                + "(the file's text as one JSON string is taken too)")
    }()
}
