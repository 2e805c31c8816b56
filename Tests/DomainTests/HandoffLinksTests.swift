import Domain
import Testing

struct HandoffLinksTests {
    static let pass = "v1.AbC-_9.k1.Zz"

    func paywall(_ text: String) -> PaywallURL { try! PaywallURL.parse(text).get() }

    @Test func thePaywallURLGetsPassEmailAndOriginInThatOrder() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay"), pass: Self.pass, email: "a@b.co")
            == "https://p.example/pay?pass=v1.AbC-_9.k1.Zz&email=a%40b.co&origin=app")
    }

    @Test func thePaywallURLHasNoEmailWhenNoneIsKnown() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay"), pass: Self.pass, email: nil)
            == "https://p.example/pay?pass=v1.AbC-_9.k1.Zz&origin=app")
    }

    @Test func theEmailIsPercentEncodedIncludingPlusAtAmpersandAndNonASCII() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/"), pass: "p", email: "a+b&c=d é@x.io")
            == "https://p.example/?pass=p&email=a%2Bb%26c%3Dd%20%C3%A9%40x.io&origin=app")
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/"), pass: "p", email: "a.b_c-d~e@x.io")
            == "https://p.example/?pass=p&email=a.b_c-d~e%40x.io&origin=app")
    }

    @Test func theBasesOwnQueryIsKept() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay?plan=pro&utm=x"), pass: "p", email: nil)
            == "https://p.example/pay?plan=pro&utm=x&pass=p&origin=app")
    }

    @Test func aBaseEndingInAQuestionMarkOrAmpersandGetsNoExtraSeparator() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay?"), pass: "p", email: nil)
            == "https://p.example/pay?pass=p&origin=app")
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay?a=1&"), pass: "p", email: nil)
            == "https://p.example/pay?a=1&pass=p&origin=app")
    }

    @Test func theQueryGoesBeforeTheFragment() {
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay#plans"), pass: "p", email: nil)
            == "https://p.example/pay?pass=p&origin=app#plans")
        #expect(HandoffLinks.paywallURL(base: paywall("https://p.example/pay?a=1#plans"), pass: "p", email: nil)
            == "https://p.example/pay?a=1&pass=p&origin=app#plans")
    }

    @Test func theReturnLinkIsSchemeHandoffWithTheCode() {
        #expect(HandoffLinks.returnLink(scheme: try! ReturnScheme.parse("MyApp").get(),
                                        code: HandoffCode.parse("ABCD2345")!) == "myapp://handoff?code=ABCD2345")
    }

    @Test func thePlayStoreURLCarriesThePackageAndTheTokenAsReferrer() {
        #expect(HandoffLinks.playStoreURL(package: try! AndroidPackage.parse("com.example.app").get(),
                                          token: InstallToken.parse("WXYZ6789")!)
            == "https://play.google.com/store/apps/details?id=com.example.app&referrer=WXYZ6789")
    }
}
