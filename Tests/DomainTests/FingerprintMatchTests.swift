import Domain
import Foundation
import Testing

/// The matching rules of resolve-by-fingerprint, one line per rule (issue 5).
struct FingerprintMatchTests {
    static let paidAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let ip = "ip-a"
    static let screen = try! ScreenSize.parse("393x852").get()
    static let otherScreen = try! ScreenSize.parse("390x844").get()

    static func probe(ip: String = ip, platform: DevicePlatform = .ios, screen: ScreenSize = screen,
                      timezone: String? = "Europe/Berlin", language: String? = nil) -> FingerprintMatch.Probe {
        FingerprintMatch.Probe(ipHash: ip, platform: platform, screen: screen, timezone: timezone, language: language)
    }

    static func candidate(_ id: String = "pi_1", guid: String = "g1", ip: String = ip,
                          platform: DevicePlatform? = .ios, screen: ScreenSize? = screen,
                          timezone: String? = "Europe/Berlin", language: String? = nil,
                          paidAt: Date = paidAt) -> FingerprintMatch.Candidate {
        FingerprintMatch.Candidate(id: id, guid: guid, ipHash: ip, platform: platform, screen: screen,
                                   timezone: timezone, language: language, paidAt: paidAt)
    }

    /// `seconds` after the payment.
    static func at(_ seconds: TimeInterval) -> Date { paidAt.addingTimeInterval(seconds) }

    static func match(_ probe: FingerprintMatch.Probe, _ candidates: [FingerprintMatch.Candidate],
                      after seconds: TimeInterval) -> FingerprintMatch.Outcome {
        FingerprintMatch.match(probe, among: candidates, now: at(seconds))
    }

    typealias M = FingerprintMatchTests

    /// `.matched` of pi_1 / g1 by `method`.
    static func hit(_ method: FingerprintMatch.Method) -> FingerprintMatch.Outcome {
        .matched(id: "pi_1", guid: "g1", method: method)
    }

    @Test func sameIPPlatformScreenAndTimezoneMatchExactly() {
        #expect(M.match(M.probe(), [M.candidate()], after: 60) == M.hit(.fingerprint))
    }

    @Test func theExactWindowIncludesTwoHoursAndEndsRightAfter() {
        #expect(M.match(M.probe(), [M.candidate()], after: 7200) == M.hit(.fingerprint))
        #expect(M.match(M.probe(), [M.candidate()], after: 7200.001) == .none)
    }

    @Test func screenOrientationDoesNotMatter() {
        let landscape = try! ScreenSize.parse("852x393").get()
        #expect(landscape == M.screen && landscape.text == "393x852")
        #expect(M.match(M.probe(screen: landscape), [M.candidate()], after: 60)
            == M.hit(.fingerprint))
    }

    @Test func withoutATimezoneOnlyTheIPMatchIsPossible() {
        #expect(M.match(M.probe(timezone: nil), [M.candidate()], after: 60) == M.hit(.ip))
        #expect(M.match(M.probe(timezone: nil), [M.candidate()], after: 1801) == .none)
    }

    @Test func aCandidateWithoutATimezoneMatchesByIPOnly() {
        #expect(M.match(M.probe(), [M.candidate(timezone: nil)], after: 60) == M.hit(.ip))
    }

    @Test func anUnknownCandidatePlatformMatchesByIPOnly() {
        #expect(M.match(M.probe(), [M.candidate(platform: nil)], after: 60) == M.hit(.ip))
    }

    @Test func theIPWindowIncludesThirtyMinutesAndEndsRightAfter() {
        #expect(M.match(M.probe(timezone: nil), [M.candidate()], after: 1800) == M.hit(.ip))
        #expect(M.match(M.probe(timezone: nil), [M.candidate()], after: 1800.001) == .none)
    }

    @Test func anotherIPNeverMatches() {
        #expect(M.match(M.probe(ip: "ip-b"), [M.candidate()], after: 60) == .none)
    }

    @Test func aContradictingPlatformNeverMatchesEvenWithTheSameIP() {
        #expect(M.match(M.probe(platform: .android), [M.candidate()], after: 60) == .none)
    }

    @Test func aContradictingScreenNeverMatchesEvenWithTheSameIP() {
        #expect(M.match(M.probe(screen: M.otherScreen), [M.candidate()], after: 60) == .none)
    }

    @Test func aContradictingTimezoneNeverMatchesEvenWithinThirtyMinutes() {
        #expect(M.match(M.probe(timezone: "Asia/Tokyo"), [M.candidate()], after: 60) == .none)
    }

    @Test func aDifferentLanguageAloneDoesNotContradict() {
        #expect(M.match(M.probe(language: "en-US"), [M.candidate(language: "ru-RU")], after: 60)
            == M.hit(.fingerprint))
    }

    @Test func twoBuyersThatTheLanguageDoesNotTellApartAreAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1"), M.candidate("pi_2", guid: "g2")]
        #expect(M.match(M.probe(), two, after: 60) == .ambiguous)
    }

    @Test func twoBuyersWithTheSameLanguageAsTheProbeAreAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1", language: "ru-RU"),
                   M.candidate("pi_2", guid: "g2", language: "ru")]
        #expect(M.match(M.probe(language: "ru-RU"), two, after: 60) == .ambiguous)
    }

    @Test func twoBuyersWithoutALanguageInTheProbeAreAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1", language: "ru"), M.candidate("pi_2", guid: "g2", language: "en")]
        #expect(M.match(M.probe(language: nil), two, after: 60) == .ambiguous)
    }

    @Test func twoBuyersWhoseLanguagesBothDifferFromTheProbeAreAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1", language: "de"), M.candidate("pi_2", guid: "g2", language: "fr")]
        #expect(M.match(M.probe(language: "ru"), two, after: 60) == .ambiguous)
    }

    @Test func anExactAndAnIPCandidateOfTwoBuyersAreAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1"), M.candidate("pi_2", guid: "g2", timezone: nil)]
        #expect(M.match(M.probe(), two, after: 60) == .ambiguous)
    }

    @Test func theLanguageTellsTwoBuyersApart() {
        let two = [M.candidate("pi_1", guid: "g1", language: "ru-RU"),
                   M.candidate("pi_2", guid: "g2", language: "en")]
        #expect(M.match(M.probe(language: "ru_RU"), two, after: 60) == M.hit(.fingerprint))
    }

    @Test func aContradictingSecondCandidateDoesNotMakeItAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1"), M.candidate("pi_2", guid: "g2", screen: M.otherScreen)]
        #expect(M.match(M.probe(), two, after: 60) == M.hit(.fingerprint))
    }

    @Test func aSecondCandidateOutsideItsWindowDoesNotMakeItAmbiguous() {
        let two = [M.candidate("pi_1", guid: "g1"), M.candidate("pi_2", guid: "g2", timezone: nil)]
        #expect(M.match(M.probe(), two, after: 1801) == M.hit(.fingerprint))
    }

    @Test func twoPaymentsOfOneBuyerAreOneAnswerTheExactAndThenTheLatest() {
        let exactAndIP = [M.candidate("pi_1", guid: "g1", timezone: nil), M.candidate("pi_2", guid: "g1")]
        #expect(M.match(M.probe(), exactAndIP, after: 60) == .matched(id: "pi_2", guid: "g1", method: .fingerprint))
        let twoExact = [M.candidate("pi_1", guid: "g1", paidAt: M.at(10)), M.candidate("pi_2", guid: "g1")]
        #expect(M.match(M.probe(), twoExact, after: 60) == M.hit(.fingerprint))
    }

    @Test func noCandidatesIsNone() {
        #expect(M.match(M.probe(), [], after: 60) == .none)
    }

    @Test func aPaymentTimeAfterNowCountsAsAgeZero() {
        #expect(M.match(M.probe(timezone: nil), [M.candidate()], after: -5) == M.hit(.ip))
    }
}

/// Screen sizes, platforms, the page language and the probe's free-text fields.
struct FingerprintFieldTests {
    @Test func screenSizesParseOrientationFreeAndRefuseTheRestNamingTheField() throws {
        #expect(try ScreenSize.parse("852x393").get().text == "393x852")
        for bad in ["", "393", "393x", "x852", "0x852", "0393x852", "393X852", "393x852x1", "-1x2", "20001x5",
                    " 1x2"] {
            #expect(ScreenSize.parse(bad, field: "screen").failure?.message
                == "field 'screen' must be the screen size in CSS pixels as WxH, e.g. 393x852", "\(bad)")
        }
    }

    @Test func thePlatformComesFromTheUserAgent() {
        let cases: [(String, DevicePlatform?)] = [
            ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36", .android),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148", .ios),
            ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15", .ios),
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36", nil),
            ("", nil),
        ]
        for (agent, platform) in cases { #expect(DevicePlatform(userAgent: agent) == platform, "\(agent)") }
        #expect(DevicePlatform.parse("IOS").failure?.message == "field 'platform' must be ios or android")
    }

    @Test func thePageLanguageFollowsAcceptLanguageWithQValues() {
        let cases: [(String?, PageLanguage)] = [
            (nil, .en), ("", .en), ("ru", .ru), ("ru-RU,ru;q=0.9,en;q=0.8", .ru), ("en-US,en;q=0.9,ru;q=0.8", .en),
            ("en;q=0.5, ru;q=0.9", .ru), ("de-DE,de;q=0.9", .en), ("de, ru;q=0.7", .ru), ("ru;q=0, en;q=0.1", .en),
            ("ru;q=0", .en), ("*", .en), ("RU-ru", .ru), ("ru;q=abc", .en), ("ru;q=0.5, en;q=0.5", .ru),
        ]
        for (header, language) in cases {
            #expect(PageLanguage.choose(acceptLanguage: header) == language, "\(header ?? "nil")")
        }
    }

    @Test func freeTextFieldsAreCheckedAndNamed() {
        #expect(FingerprintFields.timezone("America/Argentina/Buenos_Aires").failure == nil)
        #expect(FingerprintFields.timezone("Etc/GMT+3").failure == nil)
        #expect(FingerprintFields.timezone("Europe/<b>").failure?.message
            == "field 'timezone' must be an IANA time zone name such as Europe/Berlin")
        #expect(FingerprintFields.language("ru RU").failure?.message
            == "field 'language' must be a language tag such as ru-RU")
        #expect(FingerprintFields.osVersion("").failure?.message
            == "field 'osVersion' must be 1 to 32 printable characters, e.g. 17.4.1")
        #expect(FingerprintFields.bundleID("com.example_app-1").failure == nil)
        #expect(FingerprintFields.bundleID("com.example/app").failure?.code == .bundleIDFormat)
        #expect(FingerprintFields.primaryLanguage("ru_RU") == "ru")
    }
}

extension Result {
    fileprivate var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
