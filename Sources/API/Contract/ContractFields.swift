import Domain

/// The schema of every field the API takes, each from the constants its `Domain` parser checks, with the machine
/// code its refusal carries. Tests hold each pattern against its parser.
enum ContractFields {
    /// `#/components/schemas/Guid`: 1–64 of `[A-Za-z0-9._:-]`, not an unset device id, not `.` or `..`.
    static let guidComponent = JSONSchema.string(pattern: BuyerGuid.pattern, lengths: 1...BuyerGuid.maxLength)
        .example("abc123def456")
        .excluding(JSONSchema([.init("pattern", .string(BuyerGuid.refusedPattern))]))
        .described("a buyer id, compared and returned exactly as first given (ABC and abc are two buyers); ids "
            + "Handoff mints are lowercase UUIDs; unset device ids (only zeros, the max UUID, null, nil, undefined) "
            + "and . or .. are refused with VALIDATION_GUID_FORMAT")
    static let guid = JSONSchema.ref("Guid")

    static let externalId = JSONSchema.string(pattern: ExternalID.pattern, lengths: 1...ExternalID.maxLength)
        .example("user-42")
        .described("the tenant's own id: 1–\(ExternalID.maxLength) characters, no control, format or white-space "
            + "characters but the space, no leading or trailing space")
    static let email = JSONSchema.string(pattern: EmailAddress.pattern, lengths: 3...EmailAddress.maxLength)
        .example("buyer@example.com")
        .described("one @, a local part of 1–\(EmailAddress.maxLocalLength) characters, a domain with a dot; no "
            + "white-space, control or format characters")
    static let paymentId = JSONSchema.string(PaymentID.characters, lengths: 1...PaymentID.maxLength)
        .example("pi_3Nq8Example")
    /// `productId`, `entitlement`, `paywallId`: the payment id's rule.
    static let catalogId = JSONSchema.string(PaymentID.characters, lengths: 1...PaymentID.maxLength).example("pro")
    static let amount = JSONSchema.integer(minimum: 0, maximum: PaymentFields.maxAmount)
        .example(999)
        .described("in minor units (cents)")
    static let currency = JSONSchema.string(PaymentFields.currencyLetters, lengths: 3...3)
        .example("EUR")
        .described("ISO 4217, e.g. EUR")
    static let expiresAt = JSONSchema.string(pattern: RFC3339.pattern, lengths: RFC3339.lengths)
        .example("2027-02-15T08:00:00Z")
        .described("RFC 3339 (Z or ±hh:mm, up to 9 fraction digits) in the years 1970–9999 after the offset is "
            + "applied (so no positive offset on 1970-01-01, no negative one on 9999-12-31); kept to the millisecond")
    static let projectId = JSONSchema.string(pattern: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
        + "-[0-9A-Fa-f]{12}$", lengths: 36...36, format: "uuid").example("6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b")
    static let code = JSONSchema.string(pattern: HandoffCode.pattern, lengths: 8...8)
        .example("K7M2Q9XB")
        .described("a handoff code or install token: 8 of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ, exactly as minted")
    static let pageToken = JSONSchema.string(pattern: PageTokenText.pattern,
                                             lengths: PageTokenText.length...PageTokenText.length)
        .example("Yc3vQm1xR0tLq2Zp8nW4sT6uA9eB7dF5")

    // Project settings.
    static let projectName = JSONSchema.string(pattern: ProjectSettings.namePattern,
                                               lengths: 1...ProjectSettings.maxNameLength).example("My app")
    static let url = JSONSchema.string(pattern: PaywallURL.pattern, lengths: 1...PaywallURL.maxLength)
        .example("https://pay.example.com/checkout")
        .described("https (http only for localhost, 127.0.0.1, [::1]); RFC 3986 characters; no user info")
    static let returnScheme = JSONSchema.string(pattern: ReturnScheme.pattern, lengths: 1...ReturnScheme.maxLength)
        .excluding(JSONSchema([.init("pattern", .string(ReturnScheme.refusedPattern))]))
        .described("the app's own URL scheme without ://, not one that opens a browser or another handler")
        .example("myapp")
    static let androidPackage = JSONSchema.string(pattern: AndroidPackage.pattern,
                                                  lengths: 3...AndroidPackage.maxLength).example("com.example.app")
    static let iosBundleId = JSONSchema.string(pattern: IOSBundleID.pattern, lengths: 1...IOSBundleID.maxLength)
        .example("com.example.App")
    static let tracker = JSONSchema.enumeration(ProjectSettings.Tracker.allCases.map(\.rawValue))
    static let emailVerification = JSONSchema.enumeration(EmailVerification.allCases.map(\.rawValue))
        .described("payment (default): redeeming a payment's handoff code verifies its e-mail; mailbox: only a code "
            + "mailed to the address does")

    // Fingerprints.
    static let screen = JSONSchema.string(pattern: ScreenSize.pattern, lengths: 3...11)
        .described("CSS pixels as WxH, each side 1–\(ScreenSize.maxSide)").example("393x852")
    static let timezone = JSONSchema.string(FingerprintFields.timezoneCharacters,
                                            lengths: FingerprintFields.timezoneLengths).example("Europe/Berlin")
    static let language = JSONSchema.string(FingerprintFields.languageCharacters,
                                            lengths: FingerprintFields.languageLengths).example("ru-RU")
    static let osVersion = JSONSchema.string(FingerprintFields.osVersionCharacters,
                                             lengths: FingerprintFields.osVersionLengths).example("17.4.1")
    static let bundleId = JSONSchema.string(FingerprintFields.bundleIDCharacters,
                                            lengths: FingerprintFields.bundleIDLengths).example("com.example.app")
    static let platform = JSONSchema.enumeration(DevicePlatform.allCases.map(\.rawValue))

    /// Codes every JSON body can be refused with: not JSON, or a field of the wrong type or missing.
    static let bodyCodes: [MachineCode] = [.invalidJSON, .validationFailed]
}
