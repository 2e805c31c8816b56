/// The longest value, in UTF-8 bytes, that each kind of string field of Apple's payloads may have; a longer value
/// makes the payload malformed. Generous next to what Apple documents, tight enough to bound memory and logs.
public enum AppleFieldLimits {
    /// Transaction ids, web order line item ids, request and external purchase ids, storefront ids.
    public static let identifier = 128
    /// Product ids, offer ids, subscription group ids.
    public static let productIdentifier = 255
    /// Bundle ids (reverse DNS).
    public static let bundleId = 255
    /// Enumeration-like words: types, subtypes, environments, reasons, storefront codes, versions.
    public static let word = 64
    /// UUID text: `notificationUUID`, `appAccountToken`.
    public static let uuid = 64
    /// ISO 4217 currency codes (three letters; some margin).
    public static let currency = 16
    /// A nested JWS (`signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`).
    public static let nestedJWS = 32_768
    /// Entries of a list field (`storefrontCountryCodes`, `eligibleWinBackOfferIds`).
    public static let listEntries = 512
}
