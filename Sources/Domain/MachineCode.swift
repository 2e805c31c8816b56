/// A stable, public machine code carried in error bodies as `code`; clients branch on these, never on messages.
public struct MachineCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// No route has this path.
    public static let notFound = MachineCode(rawValue: "NOT_FOUND")
    /// The path exists but not for this method; the `Allow` header lists the methods it takes.
    public static let methodNotAllowed = MachineCode(rawValue: "METHOD_NOT_ALLOWED")
    /// The body is larger than the endpoint accepts.
    public static let payloadTooLarge = MachineCode(rawValue: "PAYLOAD_TOO_LARGE")
    /// The body is not valid JSON, or not the JSON object the endpoint expects.
    public static let invalidJSON = MachineCode(rawValue: "INVALID_JSON")
    /// A field is missing or has a value the endpoint does not take; the message names the field.
    public static let validationFailed = MachineCode(rawValue: "VALIDATION_FAILED")
    /// Something unexpected failed; the log holds the detail under the request id.
    public static let internalError = MachineCode(rawValue: "INTERNAL_ERROR")
    /// A dependency (Postgres, Redis) does not answer; retry after `Retry-After` seconds.
    public static let unavailable = MachineCode(rawValue: "SERVICE_UNAVAILABLE")

    /// The secret key is missing, malformed, unknown or revoked.
    public static let unauthorized = MachineCode(rawValue: "UNAUTHORIZED")
    /// Too many requests for this key or address; retry after `Retry-After` seconds.
    public static let rateLimited = MachineCode(rawValue: "RATE_LIMITED")
    /// A guid first seen in another organization; nothing was recorded.
    public static let visitorIDForeignProject = MachineCode(rawValue: "VISITOR_ID_FOREIGN_PROJECT")
    /// The `paymentId` was already recorded with a different body.
    public static let paymentConflict = MachineCode(rawValue: "PAYMENT_CONFLICT")

    /// `POST /s2s/v1/users` got neither `externalId` nor `email`.
    public static let externalIDOrEmailRequired = MachineCode(rawValue: "VALIDATION_EXTERNAL_ID_OR_EMAIL_REQUIRED")
    /// A guid outside 1–64 characters of `[A-Za-z0-9._:-]`, an unset device id, or `.`/`..` (docs/identity.md).
    public static let guidFormat = MachineCode(rawValue: "VALIDATION_GUID_FORMAT")
    /// An organization id that is not a UUID in canonical text form.
    public static let orgIDFormat = MachineCode(rawValue: "VALIDATION_ORG_ID_FORMAT")
    /// A project id that is not a UUID in canonical text form.
    public static let projectIDFormat = MachineCode(rawValue: "VALIDATION_PROJECT_ID_FORMAT")
    /// A `paymentId` outside 1–128 characters of `[A-Za-z0-9._:-]`.
    public static let paymentIDFormat = MachineCode(rawValue: "VALIDATION_PAYMENT_ID_FORMAT")
    /// A return scheme that is not an RFC 3986 scheme, or one that cannot open an app (`https`, `javascript`…).
    public static let returnSchemeFormat = MachineCode(rawValue: "VALIDATION_RETURN_SCHEME_FORMAT")
    /// An Android package name outside Android's `applicationId` rules.
    public static let androidPackageFormat = MachineCode(rawValue: "VALIDATION_ANDROID_PACKAGE_FORMAT")
    /// A bundle id with characters or a shape outside an iOS bundle id (or, where either is taken, a package name).
    public static let bundleIDFormat = MachineCode(rawValue: "VALIDATION_BUNDLE_ID_FORMAT")
    /// A `--prefix` that is not the visible prefix of a secret key (`sk_live_` and 8 base32 characters).
    public static let keyPrefixFormat = MachineCode(rawValue: "VALIDATION_KEY_PREFIX_FORMAT")
    /// A paywall URL that is not an absolute `https` URL (`http` only for localhost).
    public static let paywallURLFormat = MachineCode(rawValue: "VALIDATION_PAYWALL_URL_FORMAT")
    /// A project name that is empty, too long, or has control characters.
    public static let projectNameFormat = MachineCode(rawValue: "VALIDATION_PROJECT_NAME_FORMAT")
    /// A tracker that is not `none`, `appsflyer` or `adjust`.
    public static let trackerFormat = MachineCode(rawValue: "VALIDATION_TRACKER_FORMAT")
    /// A tracker link that is not an https URL, or missing while a tracker is chosen.
    public static let trackerLinkFormat = MachineCode(rawValue: "VALIDATION_TRACKER_LINK_FORMAT")
    /// An Adjust universal link (`*.go.link`, `*.adj.st`) without its own `adj_t` parameter (Adjust answers it 404).
    public static let trackerLinkAdjTRequired = MachineCode(rawValue: "VALIDATION_TRACKER_LINK_ADJ_T_REQUIRED")
    /// `emailVerification` is not `payment` or `mailbox`.
    public static let emailVerificationFormat = MachineCode(rawValue: "VALIDATION_EMAIL_VERIFICATION_FORMAT")
    /// An `on`/`off` flag (`--fingerprint`) with another value.
    public static let switchFormat = MachineCode(rawValue: "VALIDATION_SWITCH_FORMAT")
    /// An `externalId` outside 1–256 printable characters.
    public static let externalIDFormat = MachineCode(rawValue: "VALIDATION_EXTERNAL_ID_FORMAT")
    /// An `email` that is not a plausible address of at most 254 characters.
    public static let emailFormat = MachineCode(rawValue: "VALIDATION_EMAIL_FORMAT")
    /// A `currency` that is not 3 uppercase letters.
    public static let currencyFormat = MachineCode(rawValue: "VALIDATION_CURRENCY_FORMAT")
    /// An `amount` that is negative (it must be an integer ≥ 0 in minor units).
    public static let amountFormat = MachineCode(rawValue: "VALIDATION_AMOUNT_FORMAT")
    /// A `productId` outside 1–128 characters of `[A-Za-z0-9._:-]`.
    public static let productIDFormat = MachineCode(rawValue: "VALIDATION_PRODUCT_ID_FORMAT")
    /// An `entitlement` outside 1–128 characters of `[A-Za-z0-9._:-]`.
    public static let entitlementFormat = MachineCode(rawValue: "VALIDATION_ENTITLEMENT_FORMAT")
    /// A `paywallId` outside 1–128 characters of `[A-Za-z0-9._:-]`.
    public static let paywallIDFormat = MachineCode(rawValue: "VALIDATION_PAYWALL_ID_FORMAT")
    /// An `expiresAt` that is not an RFC 3339 date-time (or null).
    public static let expiresAtFormat = MachineCode(rawValue: "VALIDATION_EXPIRES_AT_FORMAT")
}
