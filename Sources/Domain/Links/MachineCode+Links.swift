/// The machine codes of go links (issue 21).
extension MachineCode {
    /// A link id that is not a UUID in canonical text form.
    public static let linkIDFormat = MachineCode(rawValue: "VALIDATION_LINK_ID_FORMAT")
    /// A fallback URL that is not an absolute `https` URL (`http` only for localhost).
    public static let fallbackURLFormat = MachineCode(rawValue: "VALIDATION_FALLBACK_URL_FORMAT")
    /// A UTM parameter outside 1–100 characters of `A–Z a–z 0–9 . _ ~ + -` (the message names the member).
    public static let utmFormat = MachineCode(rawValue: "VALIDATION_UTM_FORMAT")
    /// A link code outside 1–64 characters of `A–Z a–z 0–9 _ -`.
    public static let linkCodeFormat = MachineCode(rawValue: "VALIDATION_LINK_CODE_FORMAT")
    /// An App Store provider token (`pt`) or campaign token (`ct`) out of shape.
    public static let appStoreTokenFormat = MachineCode(rawValue: "VALIDATION_APP_STORE_TOKEN_FORMAT")
    /// An app id of a link that is not an app of the project on the named platform.
    public static let linkAppPlatform = MachineCode(rawValue: "VALIDATION_LINK_APP_PLATFORM")
    /// A proxy key's domains that are not 1–20 host names.
    public static let proxyDomainFormat = MachineCode(rawValue: "VALIDATION_PROXY_DOMAIN_FORMAT")
    /// The organization already has a link with this code (409).
    public static let linkCodeTaken = MachineCode(rawValue: "LINK_CODE_TAKEN")
}
