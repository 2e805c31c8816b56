import Domain
import Foundation
import Testing

/// Go-link rules (issue 21): where a click goes per user agent, the visitor match, a draft's fields, the decider.
struct GoLinkRulesTests {
    static let click = LinkToken(randomBytes: Array(repeating: 7, count: 16))
    static let target = ClickDestination.Target(
        androidPackage: "com.example.reader", appleAppId: 1_234_567_890, fallbackUrl: "https://example.com/get#top",
        utm: LinkUTM(source: "mail", campaign: "spring"), providerToken: "118234", campaignToken: "spring-mail")
    static let app = AppID(randomBytes: Array(repeating: 1, count: 16))
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test(arguments: [
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8)", ClickDestination.Platform.android),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)", .ios),
        ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X)", .ios),
        ("Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0 like Mac OS X)", .ios),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) Safari/605.1.15", .web),
        ("curl/8.5.0", .web),
    ])
    func theUserAgentChoosesThePlatform(userAgent: String, platform: ClickDestination.Platform) {
        #expect(ClickDestination.platform(userAgent: userAgent) == platform)
    }

    @Test func androidGoesToPlayWithTheUTMsAndTheClickTokenInOneEncodedReferrer() {
        let decided = ClickDestination.decide(Self.target, userAgent: "Android 14", clickToken: Self.click)
        #expect(decided.platform == .android)
        #expect(decided.location == "https://play.google.com/store/apps/details?id=com.example.reader&referrer="
            + "utm_source%3Dmail%26utm_campaign%3Dspring%26x3c%3D\(Self.click.text)")
    }

    @Test func iPhoneGoesToTheAppStoreWithPtAndCt() {
        #expect(ClickDestination.decide(Self.target, userAgent: "iPhone", clickToken: Self.click).location
            == "https://apps.apple.com/app/id1234567890?pt=118234&ct=spring-mail&mt=8")
        var bare = Self.target
        bare.providerToken = nil
        bare.campaignToken = nil
        #expect(ClickDestination.decide(bare, userAgent: "iPhone", clickToken: Self.click).location
            == "https://apps.apple.com/app/id1234567890?mt=8")
    }

    @Test func everythingElseAndAMissingAppGoToTheFallbackWithTheUTMsBeforeTheFragment() {
        var noApps = Self.target
        noApps.androidPackage = nil
        noApps.appleAppId = nil
        let cases: [(ClickDestination.Target, String?)] = [(Self.target, nil), (Self.target, "Firefox"),
                                                           (noApps, "Android"), (noApps, "iPhone")]
        for (target, agent) in cases {
            let decided = ClickDestination.decide(target, userAgent: agent, clickToken: Self.click)
            #expect(decided.platform == .web)
            #expect(decided.location == "https://example.com/get?utm_source=mail&utm_campaign=spring#top")
        }
        var plain = noApps
        plain.utm = LinkUTM()
        plain.fallbackUrl = "https://example.com/?a=1"
        #expect(ClickDestination.decide(plain, userAgent: nil, clickToken: Self.click).location
            == "https://example.com/?a=1")
    }

    @Test func theVisitorMatchTakesSElseTheNewestSessionOfTheLast30Minutes() {
        let earlier = [
            VisitorMatch.Sighting(at: Self.now.addingTimeInterval(-31 * 60), webSessionId: "old"),
            VisitorMatch.Sighting(at: Self.now.addingTimeInterval(-20 * 60), webSessionId: "a"),
            VisitorMatch.Sighting(at: Self.now.addingTimeInterval(-10 * 60), webSessionId: "b"),
            VisitorMatch.Sighting(at: Self.now.addingTimeInterval(-5 * 60), webSessionId: nil),
        ]
        #expect(VisitorMatch.session(given: "given", earlier: earlier, now: Self.now) == "given")
        #expect(VisitorMatch.session(given: nil, earlier: earlier, now: Self.now) == "b")
        #expect(VisitorMatch.session(given: "no spaces", earlier: earlier, now: Self.now) == "b")
        #expect(VisitorMatch.session(given: nil, earlier: [earlier[0]], now: Self.now) == nil)
        #expect(VisitorMatch.session(given: String(repeating: "s", count: 65), earlier: [], now: Self.now) == nil)
    }

    @Test func aDraftRefusesEachBadFieldByName() {
        func refused(fallback: String = "https://e.com/", utm: [String: String] = [:], code: String? = nil,
                     pt: String? = nil, ct: String? = nil) -> String? {
            guard case .failure(let refusal) = GoLinkDraft.parse(
                iosAppId: nil, androidAppId: nil, fallbackUrl: fallback, utm: utm, code: code, providerToken: pt,
                campaignToken: ct) else { return nil }
            return "\(refusal.field) \(refusal.code.rawValue)"
        }
        #expect(refused() == nil)
        #expect(refused(fallback: "http://example.com/") == "fallbackUrl VALIDATION_FALLBACK_URL_FORMAT")
        #expect(refused(utm: ["medium": ""]) == "utm.medium VALIDATION_UTM_FORMAT")
        #expect(refused(utm: ["term": String(repeating: "t", count: 101)]) == "utm.term VALIDATION_UTM_FORMAT")
        #expect(refused(code: "with space") == "code VALIDATION_LINK_CODE_FORMAT")
        #expect(refused(pt: "12a") == "appStore.pt VALIDATION_APP_STORE_TOKEN_FORMAT")
        #expect(refused(ct: "a&b") == "appStore.ct VALIDATION_APP_STORE_TOKEN_FORMAT")
    }

    @Test func theDeciderNeedsTheProjectItsAppsOnTheirPlatformAndAFreeCode() throws {
        let draft = try GoLinkDraft.parse(iosAppId: Self.app, androidAppId: nil, fallbackUrl: "https://e.com/",
                                          utm: [:], code: "c", providerToken: nil, campaignToken: nil).get()
        func facts(_ project: Bool = true, ios: DevicePlatform? = .ios, taken: Bool = false) -> GoLinkCreation.Facts {
            GoLinkCreation.Facts(projectExists: project, iosAppPlatform: ios, androidAppPlatform: nil,
                                 codeTaken: taken)
        }
        #expect(throws: Never.self) { try GoLinkCreation.decide(draft, facts()).get() }
        func refusal(_ facts: GoLinkCreation.Facts) -> Refusal? {
            guard case .failure(let refusal) = GoLinkCreation.decide(draft, facts) else { return nil }
            return refusal
        }
        #expect(refusal(facts(false)) == .notFound("no project has this id", field: "project"))
        #expect(refusal(facts(ios: nil))
            == .notFound("field 'iosAppId' names no app of the project", field: "iosAppId"))
        guard case .failure(let wrong) = GoLinkCreation.decide(draft, facts(ios: .android)) else {
            Issue.record("an Android app as iosAppId was taken")
            return
        }
        #expect(wrong.code == .linkAppPlatform && wrong.field == "iosAppId")
        guard case .failure(let taken) = GoLinkCreation.decide(draft, facts(taken: true)) else {
            Issue.record("a taken code was taken again")
            return
        }
        #expect(taken.kind == .conflict && taken.code == .linkCodeTaken)
    }

    @Test func linkTokensAre22Base64URLCharactersSpelledExactly() {
        #expect(Self.click.text.count == 22 && LinkToken.parse(Self.click.text) == Self.click)
        #expect(LinkToken.parse("AAAAAAAAAAAAAAAAAAAAAA") != nil)
        #expect(LinkToken.parse("AAAAAAAAAAAAAAAAAAAAAB") == nil)
        #expect(LinkToken.parse("AAAAAAAAAAAAAAAAAAAAA") == nil && LinkToken.parse("AAAAAAAAAAAAAAAAAAAA+A") == nil)
    }
}
