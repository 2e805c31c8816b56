/// The machine codes of affiliate programs, links and bind (issue 15).
extension MachineCode {
    /// An affiliate id that is not a UUID in canonical text form.
    public static let affiliateIDFormat = MachineCode(rawValue: "VALIDATION_AFFILIATE_ID_FORMAT")
    /// A campaign id that is not a UUID in canonical text form.
    public static let campaignIDFormat = MachineCode(rawValue: "VALIDATION_CAMPAIGN_ID_FORMAT")
    /// A click id that is not a UUID in canonical text form.
    public static let clickIDFormat = MachineCode(rawValue: "VALIDATION_CLICK_ID_FORMAT")
    /// A referral code outside 6–16 characters of the code alphabet (after trimming and upper-casing).
    public static let refCodeFormat = MachineCode(rawValue: "VALIDATION_REF_CODE_FORMAT")
    /// The project already has an affiliate with this referral code (409).
    public static let refCodeTaken = MachineCode(rawValue: "REF_CODE_TAKEN")
    /// An affiliate's or campaign's name that is empty, too long, or has control characters.
    public static let affiliateNameFormat = MachineCode(rawValue: "VALIDATION_AFFILIATE_NAME_FORMAT")
    /// A commission rule with a missing, unknown or out-of-range member (the message names it).
    public static let commissionFormat = MachineCode(rawValue: "VALIDATION_COMMISSION_FORMAT")
    /// `windowDays` outside 1–365.
    public static let windowDaysFormat = MachineCode(rawValue: "VALIDATION_WINDOW_DAYS_FORMAT")
    /// `holdDays` outside 0–365.
    public static let holdDaysFormat = MachineCode(rawValue: "VALIDATION_HOLD_DAYS_FORMAT")
    /// An App Store offer code outside 1–64 characters of `A-Z a-z 0-9 _ -`.
    public static let offerCodeFormat = MachineCode(rawValue: "VALIDATION_OFFER_CODE_FORMAT")
    /// A `signedClickId` that is not of the form `c1.<payload>.<keyId>.<signature>`.
    public static let signedClickIDFormat = MachineCode(rawValue: "VALIDATION_SIGNED_CLICK_ID_FORMAT")
    /// A bind body with neither or both of `signedClickId` and `refCode`.
    public static let signedClickIDOrRefCodeRequired = MachineCode(
        rawValue: "VALIDATION_SIGNED_CLICK_ID_OR_REF_CODE_REQUIRED")
    /// A landing URL that is not an absolute `https` URL (`http` only for localhost).
    public static let landingURLFormat = MachineCode(rawValue: "VALIDATION_LANDING_URL_FORMAT")
}
