import Domain
import Foundation
import Testing

/// The rules of affiliate programs: referral codes, commission rules, campaign terms, links, signed click ids and
/// the deciders of creation and bind.
struct AffiliateRulesTests {
    static let project = ProjectID(UUID(uuidString: "0c1d2e3f-9b4d-4e5f-8a7b-6f1c2e3a4a5b")!)
    static let other = ProjectID(UUID(uuidString: "1c1d2e3f-9b4d-4e5f-8a7b-6f1c2e3a4a5b")!)
    static let affiliate = AffiliateID(UUID(uuidString: "11111111-1111-4111-8111-111111111111")!)
    static let campaign = CampaignID(UUID(uuidString: "22222222-2222-4222-8222-222222222222")!)
    static let click = ClickID(UUID(uuidString: "33333333-3333-4333-8333-333333333333")!)
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let keys = PassKeys(currentKeyID: "k2", previousKeyIDs: ["k1"]) { id, message in
        toyMAC(key: "secret-\(id)", message: message)
    }
    static let terms = CampaignTerms(name: "C", commission: CommissionRule(kind: .percent(basisPoints: 1500)),
                                     windowDays: 7, offerCode: "OFFER")

    static func code(_ text: String) -> String? { try? RefCode.parse(text).get().text }

    /// The refusal of a result, or nil when it succeeded.
    static func refusal<T, E: Error>(_ result: Result<T, E>) -> E? {
        if case .failure(let error) = result { error } else { nil }
    }

    @Test func refCodesAreTrimmedUpperCasedAndOfTheCodeAlphabet() {
        #expect(Self.code("abc234") == "ABC234")
        #expect(Self.code(" \tjane234\r\n") == "JANE234")
        #expect(Self.code("llllll") == "LLLLLL")
        #expect(Self.code(String(repeating: "Z", count: 16)) == String(repeating: "Z", count: 16))
        for refused in ["ABC23", String(repeating: "Z", count: 17), "ABCDE1", "ABCDEO", "ABCDEI", "abcdei", "ABC 234",
                        "", "      ", "ÄBC234", String(repeating: " ", count: 60) + "ABC234"] {
            #expect(Self.code(refused) == nil, "\(refused.debugDescription)")
        }
        #expect(RefCode.parse("x", field: "--ref-code") == .failure(FieldRefusal(
            field: "--ref-code", code: .refCodeFormat,
            rule: "be 6–16 characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ (either case, surrounding white space "
                + "ignored)")))
        #expect(RefCode(randomBytes: [0, 0, 0, 0, 0]).text == "22222222")
        #expect(RefCode(stored: "abc234") == nil && RefCode(stored: "ABC234")?.text == "ABC234")
    }

    @Test func commissionRulesReadOneWayAndNameTheMemberTheyRefuse() throws {
        func parse(_ type: String, points: Int? = nil, amount: Int? = nil, currency: String? = nil,
                   renewals: Int? = nil) -> Result<CommissionRule, FieldRefusal> {
            CommissionRule.parse(type: type, basisPoints: points, amountMinor: amount, currency: currency,
                                 recurringRenewals: renewals)
        }
        #expect(parse("percent", points: 1) == .success(CommissionRule(kind: .percent(basisPoints: 1))))
        #expect(parse("percent", points: 10_000, renewals: 120)
            == .success(CommissionRule(kind: .percent(basisPoints: 10_000), recurringRenewals: 120)))
        #expect(parse("fixed", amount: 1, currency: "USD")
            == .success(CommissionRule(kind: .fixed(amountMinor: 1, currency: "USD"))))
        let refused: [(Result<CommissionRule, FieldRefusal>, String, MachineCode)] = [
            (parse("percent"), "commission.basisPoints", .commissionFormat),
            (parse("percent", points: 0), "commission.basisPoints", .commissionFormat),
            (parse("percent", points: 10_001), "commission.basisPoints", .commissionFormat),
            (parse("percent", points: 5, amount: 5), "commission.amountMinor", .commissionFormat),
            (parse("fixed", amount: 0, currency: "USD"), "commission.amountMinor", .commissionFormat),
            (parse("fixed", amount: 5), "commission.currency", .commissionFormat),
            (parse("fixed", amount: 5, currency: "usd"), "commission.currency", .currencyFormat),
            (parse("fixed", points: 5, amount: 5, currency: "USD"), "commission.basisPoints", .commissionFormat),
            (parse("percent", points: 5, renewals: -1), "commission.recurringRenewals", .commissionFormat),
            (parse("percent", points: 5, renewals: 121), "commission.recurringRenewals", .commissionFormat),
            (parse("PERCENT", points: 5), "commission.type", .commissionFormat),
        ]
        for (result, field, code) in refused {
            guard case .failure(let refusal) = result else {
                Issue.record("\(field) was taken")
                continue
            }
            #expect(refusal.field == field && refusal.code == code)
        }
        // JSON: every member of the type, renewals included; decoding checks the same rules.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let fixed = CommissionRule(kind: .fixed(amountMinor: 250, currency: "EUR"), recurringRenewals: 3)
        let text = String(decoding: try encoder.encode(fixed), as: UTF8.self)
        #expect(text == #"{"amountMinor":250,"currency":"EUR","recurringRenewals":3,"type":"fixed"}"#)
        #expect(try JSONDecoder().decode(CommissionRule.self, from: Data(text.utf8)) == fixed)
        #expect(try JSONDecoder().decode(CommissionRule.self, from: Data(#"{"type":"percent","basisPoints":7}"#.utf8))
            == CommissionRule(kind: .percent(basisPoints: 7)))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CommissionRule.self, from: Data(#"{"type":"percent","basisPoints":0}"#.utf8))
        }
    }

    @Test func campaignTermsTakeTheirDefaultsAndRanges() {
        let rule = CommissionRule(kind: .percent(basisPoints: 100))
        func terms(window: Int? = nil, hold: Int? = nil, offer: String? = nil, name: String = "C")
            -> Result<CampaignTerms, FieldRefusal> {
            CampaignTerms.parse(name: name, commission: rule, windowDays: window, holdDays: hold, offerCode: offer)
        }
        #expect(terms() == .success(CampaignTerms(name: "C", commission: rule, windowDays: 30, holdDays: 30)))
        #expect(terms(window: 1, hold: 0, offer: "A_b-9").map(\.offerCode) == .success("A_b-9"))
        #expect(terms(window: 365, hold: 365).map(\.windowDays) == .success(365))
        #expect(Self.refusal(terms(window: 0))?.code == .windowDaysFormat)
        #expect(Self.refusal(terms(window: 366))?.code == .windowDaysFormat)
        #expect(Self.refusal(terms(hold: -1))?.code == .holdDaysFormat)
        #expect(Self.refusal(terms(hold: 366))?.code == .holdDaysFormat)
        #expect(Self.refusal(terms(offer: ""))?.code == .offerCodeFormat)
        #expect(Self.refusal(terms(offer: String(repeating: "a", count: 65)))?.code == .offerCodeFormat)
        #expect(Self.refusal(terms(offer: "a.b"))?.code == .offerCodeFormat)
        #expect(Self.refusal(terms(name: ""))?.code == .affiliateNameFormat)
        #expect(Self.refusal(terms(name: "a\u{7}"))?.code == .affiliateNameFormat)
        #expect(Self.refusal(CampaignTerms.parse(name: "C", commission: rule, windowDays: 0, holdDays: nil,
                                                 offerCode: nil, fields: .flags))?.field == "--window-days")
    }

    @Test func theAffiliateLinkNamesItsProjectAndTheLandingURLGetsTheClick() throws {
        let code = try RefCode.parse("jane234").get()
        #expect(AffiliateLinks.link(base: "https://h.example", refCode: code, project: Self.project)
            == "https://h.example/a/JANE234?p=0c1d2e3f-9b4d-4e5f-8a7b-6f1c2e3a4a5b")
        #expect(AffiliateLinks.landing("https://a.example", signedClickID: "c1.x") == "https://a.example?click=c1.x")
        #expect(AffiliateLinks.landing("https://a.example/p?x=1", signedClickID: "c1.x")
            == "https://a.example/p?x=1&click=c1.x")
        #expect(AffiliateLinks.landing("https://a.example/p?", signedClickID: "c1.x")
            == "https://a.example/p?click=c1.x")
        #expect(AffiliateLinks.landing("https://a.example/p?x=1&", signedClickID: "c1.x")
            == "https://a.example/p?x=1&click=c1.x")
        #expect(AffiliateLinks.landing("https://a.example/p?x=1#f?g", signedClickID: "c1.x")
            == "https://a.example/p?x=1&click=c1.x#f?g")
        let settings = ProjectSettings(name: "P", paywallUrl: "https://pay.example")
        #expect(settings.affiliateLanding == "https://pay.example")
        var landing = settings
        landing.landingUrl = "https://land.example"
        #expect(landing.affiliateLanding == "https://land.example")
        #expect(ProjectSettings(name: "P").affiliateLanding == nil)
    }

    @Test func theLandingURLIsAnHTTPSProjectSettingNamedInItsRefusal() {
        var change = ProjectSettingsChange()
        change.landingUrl = .set("https://land.example/welcome")
        #expect(ProjectSettings(name: "P").applying(change).map(\.landingUrl)
            == .success("https://land.example/welcome"))
        change.landingUrl = .set("ftp://land.example")
        #expect(ProjectSettings(name: "P").applying(change) == .failure(FieldRefusal(
            field: "landingUrl", code: .landingURLFormat,
            rule: "be an absolute https URL (http only for localhost) without user info, at most 2048 characters")))
        change.fields = .flags
        #expect(Self.refusal(ProjectSettings(name: "P").applying(change))?.field == "--landing-url")
        change.landingUrl = .clear
        #expect(ProjectSettings(name: "P", landingUrl: "https://x.example").applying(change).map(\.landingUrl)
            == .success(nil))
        #expect(!change.isEmpty && ProjectSettingsChange().isEmpty)
    }

    static func clickFacts(expiresIn seconds: TimeInterval = 7 * 86_400, project: ProjectID = project) -> ClickFacts {
        ClickFacts(click: click, project: project, affiliate: affiliate, campaign: campaign, source: .link,
                   clickedAt: now, expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func aSignedClickIDCarriesItsClaimsAndVerifiesOnlyUnchangedUnexpiredAndUnderAKnownKey() throws {
        let text = SignedClickID.issue(Self.clickFacts(), keys: Self.keys)
        #expect(text.hasPrefix("c1.") && text.count == 146)
        #expect(text.range(of: SignedClickID.pattern, options: .regularExpression) != nil)
        let parsed = try SignedClickID.parse(text).get()
        let claims = SignedClickID.Claims(project: Self.project, affiliate: Self.affiliate, campaign: Self.campaign,
                                          click: Self.click, expiresAt: Self.now.addingTimeInterval(7 * 86_400))
        #expect(parsed.claims == claims)
        #expect(SignedClickID.verify(parsed, now: Self.now, keys: Self.keys) == .success(claims))
        // Expired from its expiry on.
        #expect(SignedClickID.verify(parsed, now: claims.expiresAt.addingTimeInterval(-1), keys: Self.keys)
            == .success(claims))
        #expect(SignedClickID.verify(parsed, now: claims.expiresAt, keys: Self.keys) == .failure(.expired))
        // A key rotated away.
        let rotated = PassKeys(currentKeyID: "k3", mac: Self.keys.mac)
        #expect(SignedClickID.verify(parsed, now: Self.now, keys: rotated) == .failure(.unknownKey))
        // Signed by a previous key it still verifies.
        let previous = PassKeys(currentKeyID: "k9", previousKeyIDs: ["k2"], mac: Self.keys.mac)
        #expect(SignedClickID.verify(parsed, now: Self.now, keys: previous) == .success(claims))
        // Another key id spelled in: the signature covers it.
        let renamed = text.replacingOccurrences(of: ".k2.", with: ".k1.")
        #expect(SignedClickID.verify(try SignedClickID.parse(renamed).get(), now: Self.now, keys: Self.keys)
            == .failure(.tampered))
        // Any changed character of the payload or signature.
        var characters = Array(text)
        characters[20] = characters[20] == "A" ? "B" : "A"
        #expect(SignedClickID.verify(try SignedClickID.parse(String(characters)).get(), now: Self.now,
                                     keys: Self.keys) == .failure(.tampered))
        // Malformed: another version (a pass's), fields, sizes, padding, a non-canonical last character.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let lastCharacter = try #require(text.last)
        let last = try #require(alphabet.firstIndex(of: lastCharacter))
        let nonCanonical = String(text.dropLast()) + String(alphabet[last ^ 1])
        for malformed in ["", "c1", "v2" + text.dropFirst(2), text + ".x", String(text.dropLast()), text + "=",
                          "c1." + String(repeating: "A", count: 95) + ".k2." + text.suffix(43), nonCanonical,
                          text.replacingOccurrences(of: ".k2.", with: ".k 2.")] {
            #expect(Self.refusal(SignedClickID.parse(malformed))?.code == .signedClickIDFormat, "\(malformed)")
        }
    }

    @Test func creationIsRefusedForAMissingProjectAForeignCampaignAndATakenCode() {
        typealias Facts = AffiliateCreation.Facts
        #expect(Self.refusal(AffiliateCreation.decide(Facts(projectExists: true, campaignInProject: true,
                                                            refCodeTaken: false))) == nil)
        #expect(Self.refusal(AffiliateCreation.decide(Facts(projectExists: false, campaignInProject: false,
                                                            refCodeTaken: false)))?.field == "project")
        let foreign = Self.refusal(AffiliateCreation.decide(Facts(projectExists: true, campaignInProject: false,
                                                                  refCodeTaken: true)))
        #expect(foreign?.kind == .notFound && foreign?.field == "campaignId")
        let taken = Self.refusal(AffiliateCreation.decide(Facts(projectExists: true, campaignInProject: true,
                                                                refCodeTaken: true), refCodeField: "--ref-code"))
        #expect(taken?.kind == .conflict && taken?.code == .refCodeTaken && taken?.field == "--ref-code")
        #expect(Self.refusal(CampaignCreation.decide(projectExists: false))?.kind == .notFound)
    }

    @Test func bindRefusesUnusableClicksAndKeepsAnOpenReferral() {
        let click = Self.clickFacts()
        func usable(_ click: ClickFacts?, _ project: ProjectID = Self.project, at now: Date = Self.now) -> Bool {
            Self.refusal(ReferralBinding.usable(project: project, click: click, terms: Self.terms, now: now)) == nil
        }
        #expect(usable(click) && usable(click, at: click.expiresAt.addingTimeInterval(-1)))
        #expect(!usable(nil) && !usable(click, Self.other) && !usable(click, at: click.expiresAt))
        #expect(Self.refusal(ReferralBinding.usable(project: Self.other, click: click, terms: Self.terms,
                                                    now: Self.now)) == ReferralBinding.notFound)
        // Bound at the millisecond (as the event carries it).
        let truncated = ReferralBinding.decide(click: click, terms: Self.terms, existing: nil,
                                               now: Self.now.addingTimeInterval(0.0015)).referral.boundAt
        #expect((truncated.timeIntervalSince1970 * 1000).rounded() == 1_900_000_000_001)
        let at = Self.now.addingTimeInterval(0.5)
        let bound = ReferralBinding.decide(click: click, terms: Self.terms, existing: nil, now: at)
        let expected = Referral(affiliateId: Self.affiliate, campaignId: Self.campaign, clickId: Self.click,
                                boundAt: at, windowEndsAt: at.addingTimeInterval(7 * 86_400),
                                commission: Self.terms.commission, holdDays: 30)
        #expect(bound == .bind(expected))
        // First touch: an open referral holds, for the same click or another; from its end on, a bind replaces it.
        #expect(ReferralBinding.decide(click: click, terms: Self.terms, existing: expected,
                                       now: expected.windowEndsAt.addingTimeInterval(-0.001)) == .holds(expected))
        var replaced = expected
        replaced.boundAt = expected.windowEndsAt
        replaced.windowEndsAt = expected.windowEndsAt.addingTimeInterval(7 * 86_400)
        #expect(ReferralBinding.decide(click: click, terms: Self.terms, existing: expected,
                                       now: expected.windowEndsAt) == .bind(replaced))
    }
}
