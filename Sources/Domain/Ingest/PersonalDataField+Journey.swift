/// The journey keys of an install (`AppInstallRecorded.JourneyKeys`, docs/app-identity.md "Journey keys"), sealed
/// for the install (`app-install:<hash>`). Each is named as its event member, so the event feed's opener finds it.
/// Stable public values, like the buyer fields.
extension PersonalDataField {
    /// Handoff's click token from the Play referrer.
    public static let x3c = PersonalDataField(rawValue: "x3c")
    /// Google Ads' click id from the Play referrer.
    public static let gclid = PersonalDataField(rawValue: "gclid")
    /// Apple's AdServices token.
    public static let appleAdsToken = PersonalDataField(rawValue: "appleAdsToken")
    /// The deep link of the first open.
    public static let link = PersonalDataField(rawValue: "link")
    /// The campaign of a Meta Install Referrer, decrypted.
    public static let metaReferrer = PersonalDataField(rawValue: "metaReferrer")
    /// A Play referrer's `utm_content` that is Meta's encrypted Install Referrer.
    public static let utmContent = PersonalDataField(rawValue: "utmContent")
}
