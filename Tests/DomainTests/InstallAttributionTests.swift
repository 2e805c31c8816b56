import Domain
import Testing

/// An install's tier (issue 20, `POST /v1/m/install`): the Play referrer read, and the documented precedence.
@Suite struct InstallAttributionTests {
    private let granted = IngestConsent(mode: .optIn, analytics: .granted, attribution: .granted, recordings: .denied,
                                        adMeasurement: .notUsed)

    private func tier(_ consent: IngestConsent? = nil, play: String? = nil,
                      appleAds: InstallAttribution.AppleAds = .none, link: Bool = false,
                      identity: Bool = false) -> InstallTier {
        InstallAttribution.tier(consent: consent ?? granted, play: play.map(PlayReferrer.parse), appleAds: appleAds,
                                link: link, identity: identity)
    }

    @Test func aPlayReferrerIsReadAsAnEncodedQueryWhoseFirstValueWins() {
        let referrer = PlayReferrer.parse(
            "utm_source=news%20letter&utm_medium=email&utm_campaign=spring+sale&utm_term=t&utm_content=c"
                + "&gclid=Cj0KCQ&x3c=clk_7Hq&utm_source=second&junk&=x&empty=")
        #expect(referrer == PlayReferrer(utmSource: "news letter", utmMedium: "email", utmCampaign: "spring sale",
                                         utmTerm: "t", utmContent: "c", gclid: "Cj0KCQ", x3c: "clk_7Hq"))
        #expect(PlayReferrer.parse("%%%") == PlayReferrer())
        #expect(PlayReferrer.parse("utm_source=a%00b&x3c=%0A&gclid=g") == PlayReferrer(gclid: "g"))
        #expect(PlayReferrer.parse("utm_source=" + String(repeating: "a", count: 600)).utmSource?.count == 512)
    }

    @Test func playsOrganicMarksNameNoSourceButX3cGclidOrAnotherUTMDo() {
        #expect(!PlayReferrer.parse("utm_source=google-play&utm_medium=organic").isAttributed)
        #expect(!PlayReferrer.parse("utm_source=(not%20set)&utm_medium=(not%20set)").isAttributed)
        #expect(!PlayReferrer.parse("").isAttributed)
        #expect(PlayReferrer.parse("utm_source=google-play&utm_medium=organic&x3c=clk_1").isAttributed)
        #expect(PlayReferrer.parse("utm_source=google-play&utm_medium=organic&gclid=abc").isAttributed)
        #expect(PlayReferrer.parse("utm_source=google-play&utm_medium=cpc").isAttributed)
        #expect(PlayReferrer.parse("utm_source=newsletter").isAttributed)
    }

    @Test func withoutAttributionConsentEveryInstallIsUnknown() {
        for state in [IngestConsent.State.denied, .pending, .notUsed] {
            var consent = granted
            consent.attribution = state
            #expect(tier(consent, play: "x3c=clk_1", appleAds: .resolved(attributed: true), link: true,
                         identity: true) == .unknown)
        }
    }

    @Test func tiersFollowTheDocumentedPrecedence() {
        #expect(tier(play: "x3c=clk_1", appleAds: .resolved(attributed: true), link: true) == .referrer)
        #expect(tier(play: "utm_source=google-play&utm_medium=organic", appleAds: .resolved(attributed: true),
                     link: true) == .appleAds)
        #expect(tier(appleAds: .unresolved, link: true, identity: true) == .pending)
        #expect(tier(appleAds: .resolved(attributed: false), link: true) == .link)
        #expect(tier(link: true, identity: true) == .link)
        #expect(tier(identity: true) == .identity)
        #expect(tier(play: "utm_source=google-play&utm_medium=organic") == .organic)
        #expect(tier() == .organic)
    }
}
