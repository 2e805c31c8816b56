import Domain
import Testing

/// The `identity` install tier and the user's account tokens as the SDK spells them (issue 20).
@Suite struct InstallIdentityTests {
    @Test func anOrganicOrUnknownInstallBecomesIdentityOnlyWithAttributionGranted() {
        #expect(InstallIdentity.identifiedTier(current: .organic, attributionGranted: true) == .identity)
        #expect(InstallIdentity.identifiedTier(current: .unknown, attributionGranted: true) == .identity)
        #expect(InstallIdentity.identifiedTier(current: .organic, attributionGranted: false) == nil)
        #expect(InstallIdentity.identifiedTier(current: .unknown, attributionGranted: false) == nil)
    }

    @Test func everyTierAboveIdentityStays() {
        for tier in [InstallTier.referrer, .appleAds, .pending, .link, .identity] {
            #expect(InstallIdentity.identifiedTier(current: tier, attributionGranted: true) == nil)
        }
    }

    @Test func aUserIdIsTakenAsGivenAndAnAddressTrimmedLowercasedAndGoogleNormalized() {
        let texts = InstallIdentity.tokenTexts(userId: "User-42", email: " Ada.L+news@GMail.com\n")
        #expect(texts.map(\.kind) == ["xid", "em", "emg"])
        #expect(texts.map(\.text) == ["User-42", "ada.l+news@gmail.com", "adal@gmail.com"])
    }

    @Test func onlyGmailAddressesLoseTheirDotsAndTags() {
        #expect(InstallIdentity.tokenTexts(userId: nil, email: "Ada.L+news@Example.com").map(\.text)
                == ["ada.l+news@example.com", "ada.l+news@example.com"])
        #expect(InstallIdentity.tokenTexts(userId: nil, email: "a.b@googlemail.com").last?.text == "ab@googlemail.com")
        #expect(InstallIdentity.tokenTexts(userId: nil, email: nil).isEmpty)
    }
}
