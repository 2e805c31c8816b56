/// `data` of a notification (`data` in Apple's documentation): the app, the environment, and the signed
/// transaction and renewal info of the purchase the notification is about.
public struct AppleNotificationData: Sendable, Equatable, Decodable {
    /// `appAppleId`: the app's App Store id; Apple leaves it out in Sandbox.
    public let appAppleId: Int64?
    /// `bundleId`.
    public let bundleId: String?
    /// `bundleVersion`: the app's build version.
    public let bundleVersion: String?
    /// `environment`: `Production` or `Sandbox`.
    public let environment: String?
    /// `signedTransactionInfo`: a JWS of the transaction (`AppleTransaction` once verified).
    public let signedTransactionInfo: String?
    /// `signedRenewalInfo`: a JWS of the subscription renewal info (`AppleRenewalInfo` once verified).
    public let signedRenewalInfo: String?
    /// `status`: the subscription status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public let status: Int64?
    /// `consumptionRequestReason`: for `CONSUMPTION_REQUEST`.
    public let consumptionRequestReason: String?

    private enum CodingKeys: String, CodingKey {
        case appAppleId, bundleId, bundleVersion, environment, signedTransactionInfo, signedRenewalInfo, status,
             consumptionRequestReason
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appAppleId = try c.integer(.appAppleId)
        bundleId = try c.text(.bundleId, limit: AppleFieldLimits.bundleId)
        bundleVersion = try c.text(.bundleVersion, limit: AppleFieldLimits.word)
        environment = try c.text(.environment, limit: AppleFieldLimits.word)
        signedTransactionInfo = try c.text(.signedTransactionInfo, limit: AppleFieldLimits.nestedJWS)
        signedRenewalInfo = try c.text(.signedRenewalInfo, limit: AppleFieldLimits.nestedJWS)
        status = try c.integer(.status)
        consumptionRequestReason = try c.text(.consumptionRequestReason, limit: AppleFieldLimits.word)
    }
}

/// `summary` of a `RENEWAL_EXTENSION` / `SUMMARY` notification: the outcome of a mass renewal-date extension.
public struct AppleNotificationSummary: Sendable, Equatable, Decodable {
    /// `appAppleId`.
    public let appAppleId: Int64?
    /// `bundleId`.
    public let bundleId: String?
    /// `environment`.
    public let environment: String?
    /// `productId`: the subscription extended.
    public let productId: String?
    /// `requestIdentifier`: the id the developer gave the extension request.
    public let requestIdentifier: String?
    /// `storefrontCountryCodes`: ISO 3166-1 alpha-3 codes the extension applied in.
    public let storefrontCountryCodes: [String]?
    /// `succeededCount`.
    public let succeededCount: Int64?
    /// `failedCount`.
    public let failedCount: Int64?

    private enum CodingKeys: String, CodingKey {
        case appAppleId, bundleId, environment, productId, requestIdentifier, storefrontCountryCodes, succeededCount,
             failedCount
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appAppleId = try c.integer(.appAppleId)
        bundleId = try c.text(.bundleId, limit: AppleFieldLimits.bundleId)
        environment = try c.text(.environment, limit: AppleFieldLimits.word)
        productId = try c.text(.productId, limit: AppleFieldLimits.productIdentifier)
        requestIdentifier = try c.text(.requestIdentifier, limit: AppleFieldLimits.identifier)
        storefrontCountryCodes = try c.texts(.storefrontCountryCodes, limit: AppleFieldLimits.word)
        succeededCount = try c.integer(.succeededCount)
        failedCount = try c.integer(.failedCount)
    }
}

/// `externalPurchaseToken` of an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct AppleExternalPurchaseToken: Sendable, Equatable, Decodable {
    /// `externalPurchaseId`; starts with `SANDBOX` for sandbox tokens.
    public let externalPurchaseId: String?
    /// `tokenCreationDate`: milliseconds since 1970.
    public let tokenCreationDate: Int64?
    /// `appAppleId`.
    public let appAppleId: Int64?
    /// `bundleId`.
    public let bundleId: String?

    private enum CodingKeys: String, CodingKey {
        case externalPurchaseId, tokenCreationDate, appAppleId, bundleId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        externalPurchaseId = try c.text(.externalPurchaseId, limit: AppleFieldLimits.identifier)
        tokenCreationDate = try c.integer(.tokenCreationDate)
        appAppleId = try c.integer(.appAppleId)
        bundleId = try c.text(.bundleId, limit: AppleFieldLimits.bundleId)
    }
}

/// `appData` of app-level notifications (e.g. `RESCIND_CONSENT`). `signedAppTransactionInfo` is kept as text and
/// not verified.
public struct AppleNotificationAppData: Sendable, Equatable, Decodable {
    /// `appAppleId`.
    public let appAppleId: Int64?
    /// `bundleId`.
    public let bundleId: String?
    /// `environment`.
    public let environment: String?
    /// `signedAppTransactionInfo`: a JWS of the app transaction, not verified by Handoff.
    public let signedAppTransactionInfo: String?

    private enum CodingKeys: String, CodingKey {
        case appAppleId, bundleId, environment, signedAppTransactionInfo
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appAppleId = try c.integer(.appAppleId)
        bundleId = try c.text(.bundleId, limit: AppleFieldLimits.bundleId)
        environment = try c.text(.environment, limit: AppleFieldLimits.word)
        signedAppTransactionInfo = try c.text(.signedAppTransactionInfo, limit: AppleFieldLimits.nestedJWS)
    }
}
