@testable import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /done/<pageToken>`: the post-payment page (issue 5).
@Suite struct PostPaymentPageTests {
    typealias F = FingerprintFixture

    private func page(_ world: F, _ token: String, userAgent: String = F.android, language: String? = nil)
        -> Response
    {
        var headers = [("User-Agent", userAgent)]
        if let language { headers.append(("Accept-Language", language)) }
        return world.api.respond(to: Request(method: .get, path: "/done/\(token)", headers: Headers(headers)))
    }

    @Test func thePageShowsTheCodeTheAppAndPlayButtonsWithStrictHeaders() throws {
        let world = try F()
        let paid = try world.pay()
        let response = page(world, paid.token)
        #expect(response.status == 200)
        let html = bodyText(response)
        #expect(html.contains(#"<p class="caption">Or enter the code manually</p><p class="code" id="code">"#
            + paid.code + "</p>"))
        #expect(html.contains(#"<a class="button" id="open-app" href="myapp://handoff?code=\#(paid.code)">"#
            + "Open the app</a>"))
        let installToken = try #require(html.range(of: "referrer=").map { String(html[$0.upperBound...].prefix(8)) })
        #expect(InstallToken.parse(installToken) != nil)
        #expect(html.contains(#"<a class="button store" id="store" href="https://play.google.com/store/apps/details?"#
            + #"id=com.example.app&amp;referrer=\#(installToken)">Get it on Google Play</a>"#))
        #expect(html.contains(#"data-token="\#(paid.token)" "#
            + #"data-endpoint="https://handoff.example.com/public/handoff/fingerprint""#))
        #expect(html.contains("<script>\(PostPaymentPageHTML.script)</script>") && html.contains("<html lang=\"en\""))
        #expect(!html.contains("http://") && !html.contains("src=") && !html.contains("<link"))
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Referrer-Policy"] == "no-referrer")
        let csp = try #require(response.headers["Content-Security-Policy"])
        #expect(csp.hasPrefix("default-src 'none'; style-src 'sha256-") && csp.contains("; connect-src 'self';"))
        #expect(csp.contains("script-src '\(PostPaymentPageHTML.hashSource(PostPaymentPageHTML.script))'"))
        #expect(PostPaymentPageHTML.hashSource("") == "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
    }

    @Test func anIPhoneGetsNoPlayButtonAndTheTrackerButtonOnlyWhenATrackerURLIsGiven() throws {
        let world = try F()
        let paid = try world.pay()
        let html = bodyText(page(world, paid.token, userAgent: F.iPhone))
        #expect(!html.contains("id=\"store\"") && html.contains(paid.code))
        let facts = try #require(try world.api.environment.model.identity?.pages
            .facts(token: paid.token, now: world.clock.now()))
        let content = PostPaymentPageHandler.content(facts, token: paid.token, platform: .ios, language: .en,
                                                     trackerURL: "https://app.appsflyer.com/x?a=1&b=\"<>",
                                                     endpoint: "https://h/e")
        #expect(content.storeLink == .tracker("https://app.appsflyer.com/x?a=1&b=\"<>"))
        #expect(bodyText(PostPaymentPageHTML.render(content)).contains(
            #"href="https://app.appsflyer.com/x?a=1&amp;b=&quot;&lt;&gt;">Download the app</a>"#))
        let android = PostPaymentPageHandler.content(facts, token: paid.token, platform: .android, language: .en,
                                                     trackerURL: "https://app.appsflyer.com/x", endpoint: "e")
        guard case .googlePlay = android.storeLink else { Issue.record("Android gets Google Play"); return }
    }

    @Test func anIPhoneInATrackerProjectGetsTheStoreTrackerLinkThePaymentAnswered() throws {
        let world = try F(settings: ["--fingerprint", "on", "--return-scheme", "myapp", "--tracker", "appsflyer",
                                     "--tracker-link", "https://myapp.onelink.me/AbCd?pid=web"])
        let response = world.api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: world.tenant.key,
                                                        body: PaymentTests.body(guid: PaymentTests.guidA,
                                                                                paymentId: "pi_tracker")))
        #expect(response.status == 200)
        let json = jsonObject(response)
        let store = try #require((json["install"] as? [String: Any])?["trackerUrl"] as? String)
        #expect(store.contains("deep_link_sub4=store") && store.contains("deep_link_value=handoff"))
        let url = try #require((json["handoff"] as? [String: Any])?["postPaymentUrl"] as? String)
        let token = String(url.dropFirst("https://handoff.example.com/done/".count))
        let html = bodyText(page(world, token, userAgent: F.iPhone))
        #expect(html.contains(#"id="store" href="\#(store.replacingOccurrences(of: "&", with: "&amp;"))">"#))
        // This project has no Android package, so an Android visitor gets the same store tracker link (no Play URL).
        let android = bodyText(page(world, token, userAgent: F.android))
        #expect(android.contains(#"id="store" href="\#(store.replacingOccurrences(of: "&", with: "&amp;"))">"#))
        #expect(!android.contains("play.google.com"))

        // With an Android package, Android visitors get Google Play instead of the tracker, iPhones the tracker.
        let both = try F(settings: ["--fingerprint", "on", "--android-package", F.bundle, "--tracker", "appsflyer",
                                    "--tracker-link", "https://myapp.onelink.me/AbCd?pid=web"])
        let paid = try both.pay(paymentId: "pi_tracker_play")
        let play = bodyText(page(both, paid.token, userAgent: F.android))
        #expect(play.contains("play.google.com") && !play.contains("onelink.me"))
        #expect(bodyText(page(both, paid.token, userAgent: F.iPhone)).contains("onelink.me"))
    }

    @Test func russianTextsFollowAcceptLanguageWithQValues() throws {
        let world = try F()
        let paid = try world.pay()
        let russian = bodyText(page(world, paid.token, language: "ru-RU,ru;q=0.9,en;q=0.8"))
        #expect(russian.contains("<html lang=\"ru\"") && russian.contains("Или введите код вручную")
            && russian.contains("Открыть приложение") && russian.contains("Скачать в Google Play"))
        #expect(russian.contains(paid.code))
        let english = bodyText(page(world, paid.token, language: "de-DE, en;q=0.8, ru;q=0.5"))
        #expect(english.contains("Or enter the code manually") && !english.contains("Или"))
        #expect(bodyText(page(world, paid.token, language: "en;q=0.2, ru;q=0.3")).contains("Или введите код вручную"))
    }

    @Test func everyBadTokenAnswersTheSameHTML404() throws {
        let world = try F()
        let paid = try world.pay()
        let flipped = String(paid.token.dropLast()) + (paid.token.hasSuffix("A") ? "B" : "A")
        let unknownCode = PageToken(masterKey: TestIdentity.secrets().masterKey)
            .seal(try #require(HandoffCode.parse("23456789")))
        let otherKey = PageToken(masterKey: Array(repeating: 0x55, count: 32))
            .seal(try #require(HandoffCode.parse(paid.code)))
        var bodies: Set<[UInt8]> = []
        for token in [flipped, unknownCode, otherKey, "x", String(repeating: "A", count: 32), "%3Cscript%3E",
                      String(repeating: "A", count: 500)] {
            let response = page(world, token)
            #expect(response.status == 404, "\(token)")
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Cache-Control"] == "no-store")
            bodies.insert(response.body)
        }
        #expect(bodies == [PostPaymentPageHTML.notFound.body])
        #expect(bodyText(PostPaymentPageHTML.notFound).contains("Page not found"))
        #expect(page(world, paid.token).status == 200)
    }

    @Test func aRedeemedOrExpiredCodeShowsNeitherTheCodeNorItsAppLinkNorTheScriptNorTheInstallToken() throws {
        let world = try F()
        let paid = try world.pay()
        world.clock.advance(HandoffCode.lifetime)
        for html in [bodyText(page(world, paid.token)), bodyText(page(world, paid.token, language: "ru"))] {
            #expect(!html.contains(paid.code) && !html.contains("open-app") && !html.contains("<script"))
            // The install token would still resolve to the buyer's guid for 30 days: a spent page never shows it.
            #expect(html.contains("id=\"spent\"") && !html.contains("referrer=") && !html.contains("id=\"store\""))
        }
        #expect(bodyText(page(world, paid.token)).contains("This code is no longer valid."))

        let fresh = try F()
        let redeemed = try fresh.pay()
        try fresh.fixture.ownerConnection()
            .execute("UPDATE handoff_codes SET redeemed_at = now() WHERE kind = 'handoff'")
        let html = bodyText(page(fresh, redeemed.token, language: "ru"))
        #expect(!html.contains(redeemed.code) && html.contains("Этот код больше не действует."))
        #expect(!html.contains("referrer="))
    }

    @Test func aPageTokenExpiresWithTheLaterOfItsTwoCodes() throws {
        let world = try F()
        let paid = try world.pay()
        // The install token lives 30 days from the payment: until then the page answers (without codes) …
        world.clock.advance(InstallToken.lifetime - 1)
        #expect(page(world, paid.token).status == 200)
        // … and from its expiry on, the token opens nothing: the one HTML 404.
        world.clock.advance(1)
        let gone = page(world, paid.token)
        #expect(gone.status == 404 && gone.body == PostPaymentPageHTML.notFound.body)
    }

    @Test func everythingPutIntoTheHTMLIsEscaped() {
        #expect(PostPaymentPageHTML.escape(#"<a href="x">'&'</a>"#)
            == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        let html = bodyText(PostPaymentPageHTML.render(PostPaymentPageHTML.Content(
            language: .en, code: "<b>", returnLink: "a\"b://x", storeLink: .googlePlay("https://p/?a=<x>"),
            fingerprint: .init(token: "t\"><script>", endpoint: "https://h/\"e"))))
        #expect(!html.contains("<b>") && !html.contains("t\"><script>") && !html.contains("a\"b"))
        #expect(html.contains("&lt;b&gt;") && html.contains("t&quot;&gt;&lt;script&gt;"))
    }

    @Test func pageTokensAreStableAndOpenOnlyUnderTheirKey() throws {
        let tokens = PageToken(masterKey: Array(repeating: 0x33, count: 32))
        let code = try #require(HandoffCode.parse("ABCDEFGH"))
        #expect(tokens.seal(code) == tokens.seal(code) && tokens.seal(code).count == 32)
        #expect(tokens.open(tokens.seal(code)) == code)
        #expect(!tokens.seal(code).contains("ABCDEFGH"))
        #expect(PageToken(masterKey: Array(repeating: 0x34, count: 32)).open(tokens.seal(code)) == nil)
        #expect(tokens.open("") == nil && tokens.open("!!!!") == nil)
    }
}
