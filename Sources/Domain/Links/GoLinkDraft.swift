/// What a go link is made of before it is stored (`POST /s2s/v1/links`, `handoff admin link create`): the apps it
/// leads to per platform (each optional), the fallback URL for everything else, UTM parameters, an optional code for
/// a proxy key's domain, and the App Store's provider and campaign tokens (`pt`, `ct`).
public struct GoLinkDraft: Hashable, Sendable {
    public var iosAppId: AppID?
    public var androidAppId: AppID?
    public var fallbackUrl: String
    public var utm: LinkUTM
    public var code: String?
    public var appStoreProviderToken: String?
    public var appStoreCampaignToken: String?

    /// The characters of a link code.
    public static let codeCharacters = ASCIISet("A-Za-z0-9_-")
    /// Characters of a link code.
    public static let codeLengths = 1...64
    /// The characters of the App Store's `pt` (digits) and `ct` (campaign text).
    public static let providerTokenCharacters = ASCIISet("0-9")
    public static let campaignTokenCharacters = ASCIISet("A-Za-z0-9._~+-")
    public static let providerTokenLengths = 1...64
    public static let campaignTokenLengths = 1...100

    /// Field names as the caller spells them (JSON members or CLI flags).
    public struct Fields: Sendable {
        public var fallbackUrl = "fallbackUrl"
        public var code = "code"
        public var utm = "utm"
        public var providerToken = "appStore.pt"
        public var campaignToken = "appStore.ct"

        public init() {}
    }

    /// Checks every field; the first refusal names its field. App ids are checked against the project later.
    public static func parse(iosAppId: AppID?, androidAppId: AppID?, fallbackUrl: String, utm: [String: String],
                             code: String?, providerToken: String?, campaignToken: String?,
                             fields: Fields = Fields()) -> Result<GoLinkDraft, FieldRefusal> {
        guard case .success(let url) = PaywallURL.parse(fallbackUrl, field: fields.fallbackUrl) else {
            return .failure(FieldRefusal(field: fields.fallbackUrl, code: .fallbackURLFormat,
                                         rule: "be an absolute https URL (http only for localhost) without user info, "
                                             + "at most \(PaywallURL.maxLength) characters"))
        }
        if let code, !(codeLengths.contains(code.utf8.count) && codeCharacters.containsAll(code)) {
            return .failure(FieldRefusal(field: fields.code, code: .linkCodeFormat,
                                         rule: "be 1–64 characters of \(codeCharacters.classBody)"))
        }
        if let providerToken, !(providerTokenLengths.contains(providerToken.utf8.count)
                                && providerTokenCharacters.containsAll(providerToken)) {
            return .failure(FieldRefusal(field: fields.providerToken, code: .appStoreTokenFormat,
                                         rule: "be 1–64 digits (the App Store provider token)"))
        }
        if let campaignToken, !(campaignTokenLengths.contains(campaignToken.utf8.count)
                                && campaignTokenCharacters.containsAll(campaignToken)) {
            return .failure(FieldRefusal(field: fields.campaignToken, code: .appStoreTokenFormat,
                                         rule: "be 1–100 characters of \(campaignTokenCharacters.classBody)"))
        }
        return LinkUTM.parse(utm, field: fields.utm).map {
            GoLinkDraft(iosAppId: iosAppId, androidAppId: androidAppId, fallbackUrl: url.text, utm: $0, code: code,
                        appStoreProviderToken: providerToken, appStoreCampaignToken: campaignToken)
        }
    }
}
