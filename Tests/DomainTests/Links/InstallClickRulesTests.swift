import Domain
import Testing

/// An install's `x3c` counts for its tier only when it names a known click (issue 21).
@Suite struct InstallClickRulesTests {
    private let granted = IngestConsent(mode: .optIn, analytics: .granted, attribution: .granted, recordings: .denied,
                                        adMeasurement: .notUsed)

    private func tier(_ raw: String, clickKnown: Bool) -> InstallTier {
        InstallAttribution.tier(consent: granted,
                                play: PlayReferrer.parse(raw).counted(clickKnown: clickKnown), appleAds: .none,
                                link: false, identity: false)
    }

    @Test func aKnownClickTokenIsASource() { #expect(tier("x3c=clk_1", clickKnown: true) == .referrer) }

    @Test func anUnknownClickTokenAloneIsOrganic() { #expect(tier("x3c=clk_1", clickKnown: false) == .organic) }

    @Test func anUnknownClickTokenLeavesTheRestOfTheReferrerToDecide() {
        #expect(tier("utm_source=mail&x3c=clk_1", clickKnown: false) == .referrer)
        #expect(tier("gclid=g&x3c=clk_1", clickKnown: false) == .referrer)
    }

    @Test func countingKeepsEverythingButAnUnknownToken() {
        let referrer = PlayReferrer.parse("utm_source=mail&gclid=g&x3c=clk_1")
        #expect(referrer.counted(clickKnown: true) == referrer)
        #expect(referrer.counted(clickKnown: false) == PlayReferrer(utmSource: "mail", gclid: "g"))
    }
}
