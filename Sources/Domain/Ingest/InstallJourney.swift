/// The journey keys of one install, in clear: the identifiers that tie this one install to its journey outside the
/// app — Handoff's click token `x3c`, Google's `gclid`, Apple's AdServices token, the deep link of the first open,
/// the Meta Install Referrer (decrypted, and Meta's encrypted `utm_content`) — as opposed to the campaign-level
/// fields (`utm_*`, the go link, the tier) that stay for the reports (docs/app-identity.md "Journey keys").
///
/// Never recorded in clear: `AppInstallRecorded` (version 2) carries them sealed for the install, and an erasure of
/// the install clears them.
public struct InstallJourney: Sendable, Equatable {
    public var x3c: String?
    public var gclid: String?
    public var appleAdsToken: String?
    public var link: String?
    public var metaReferrer: String?
    /// The Play referrer's `utm_content` when it is Meta's encrypted Install Referrer (then no campaign field).
    public var metaUtmContent: String?

    public init(x3c: String? = nil, gclid: String? = nil, appleAdsToken: String? = nil, link: String? = nil,
                metaReferrer: String? = nil, metaUtmContent: String? = nil) {
        self.x3c = x3c
        self.gclid = gclid
        self.appleAdsToken = appleAdsToken
        self.link = link
        self.metaReferrer = metaReferrer
        self.metaUtmContent = metaUtmContent
    }

    /// Each key present, with the field it is sealed under (`PersonalDataField`, named as its event member).
    public var fields: [(field: PersonalDataField, text: String)] {
        let all: [(PersonalDataField, String?)] = [
            (.x3c, x3c), (.gclid, gclid), (.appleAdsToken, appleAdsToken), (.link, link),
            (.metaReferrer, metaReferrer), (.utmContent, metaUtmContent),
        ]
        return all.compactMap { field, text in text.map { (field: field, text: $0) } }
    }
}
