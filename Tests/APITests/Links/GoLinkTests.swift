import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST/GET /s2s/v1/links` and `GET /v1/go/{ref}` (issue 21): links per project, clicks with click tokens, 302 by
/// platform, the visitor match, refusals and other organizations.
@Suite struct GoLinkTests {
    private typealias F = GoLinkFixture

    /// A tenant with an iOS app (App Store id 1234567890) and an Android app; (org, project, key, ios, android).
    private func tenantWithApps(_ fixture: F) throws
        -> (org: String, project: String, key: String, ios: String, android: String)
    {
        let t = try fixture.tenant()
        let ios = try fixture.app(key: t.key,
                                  #"{"platform":"ios","bundleId":"com.example.Reader","appAppleId":1234567890}"#)
        let android = try fixture.app(key: t.key, #"{"platform":"android","bundleId":"com.example.reader"}"#)
        return (t.org, t.project, t.key, ios, android)
    }

    @Test func creatingALinkAnswersItWithItsTokenAndURLAndTheProjectListsIt() throws {
        let fixture = try F.migrated()
        let t = try tenantWithApps(fixture)
        let created = try fixture.link(key: t.key, """
            {"fallbackUrl":"https://example.com/get#top","iosAppId":"\(t.ios)","androidAppId":"\(t.android)",
             "utm":{"source":"newsletter","medium":"email","campaign":"spring_24","term":null},"code":"spring",
             "appStore":{"pt":"118234","ct":"spring-mail"}}
            """)
        let token = try #require(created["token"] as? String)
        #expect(LinkToken.parse(token) != nil)
        #expect(created["url"] as? String == "\(F.base)/v1/go/\(token)")
        #expect(created["projectId"] as? String == t.project)
        #expect(created["iosAppId"] as? String == t.ios && created["androidAppId"] as? String == t.android)
        #expect(created["code"] as? String == "spring")
        #expect(created["fallbackUrl"] as? String == "https://example.com/get#top")
        #expect(created["utm"] as? [String: String] == ["source": "newsletter", "medium": "email",
                                                         "campaign": "spring_24"])
        #expect(created["appStore"] as? [String: String] == ["pt": "118234", "ct": "spring-mail"])
        #expect(Set(created.keys) == ["linkId", "projectId", "token", "url", "code", "iosAppId", "androidAppId",
                                      "fallbackUrl", "utm", "appStore", "createdAt"])
        let plain = try fixture.link(key: t.key, #"{"fallbackUrl":"https://example.com/"}"#)
        #expect(plain["code"] is NSNull && plain["iosAppId"] is NSNull && plain["androidAppId"] is NSNull)
        #expect((plain["appStore"] as? [String: Any])?["pt"] is NSNull)
        let list = fixture.send(.get, "/s2s/v1/links", key: t.key)
        #expect(list.status == 200)
        let links = try #require(jsonObject(list)["links"] as? [[String: Any]])
        #expect(links.compactMap { $0["linkId"] as? String } == [created["linkId"], plain["linkId"]]
            .compactMap { $0 as? String })
        // One GoLinkCreated event per link.
        #expect(try fixture.owner().query("""
            SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = 'GoLinkCreated'
            """, [.text(t.org)]).rows[0].int("n") == 2)
    }

    @Test func aClickRedirectsAndroidToPlayWithTheClickTokenIPhoneToTheAppStoreAndTheRestToTheFallback() throws {
        let fixture = try F.migrated()
        let t = try tenantWithApps(fixture)
        let token = try #require(try fixture.link(key: t.key, """
            {"fallbackUrl":"https://example.com/get?x=1#top","iosAppId":"\(t.ios)","androidAppId":"\(t.android)",
             "utm":{"source":"newsletter","campaign":"spring"},"appStore":{"pt":"118234","ct":"spring-mail"}}
            """)["token"] as? String)
        let android = fixture.follow(token, userAgent: F.androidAgent)
        fixture.clock.set(F.start.addingTimeInterval(1))
        let iPhone = fixture.follow(token, userAgent: F.iPhoneAgent)
        fixture.clock.set(F.start.addingTimeInterval(2))
        let desktop = fixture.follow(token, userAgent: F.desktopAgent)
        for response in [android, iPhone, desktop] {
            #expect(response.status == 302)
            #expect(response.body.isEmpty)
            #expect(response.headers["Cache-Control"] == "no-store")
            #expect(response.headers["Referrer-Policy"] == "no-referrer")
            #expect(response.headers["Set-Cookie"] == nil)
        }
        let clicks = try fixture.clicks(org: t.org)
        #expect(clicks.map { $0["platform"] } == ["android", "ios", "web"])
        let clickToken = try #require(clicks.first?["click_token"])
        #expect(android.headers["Location"] == "https://play.google.com/store/apps/details?id=com.example.reader"
            + "&referrer=utm_source%3Dnewsletter%26utm_campaign%3Dspring%26x3c%3D" + clickToken)
        #expect(iPhone.headers["Location"] == "https://apps.apple.com/app/id1234567890?pt=118234&ct=spring-mail&mt=8")
        #expect(desktop.headers["Location"]
            == "https://example.com/get?x=1&utm_source=newsletter&utm_campaign=spring#top")
        // Every click has its own token; none is test traffic; no IP or user agent is stored.
        #expect(Set(clicks.compactMap { $0["click_token"] }).count == 3)
        #expect(clicks.allSatisfy { $0["test"] == "false" })
        let stored = try fixture.owner().query("SELECT row_to_json(c)::text AS row FROM link_clicks c").rows
            .compactMap { $0["row"] }.joined()
        #expect(!stored.contains("198.51.100") && !stored.contains("Android 14") && !stored.contains("iPhone"))
    }

    @Test func aLinkWithoutAppsSendsPhonesToTheFallbackAndAnIOSAppWithoutAnAppStoreIdToo() throws {
        let fixture = try F.migrated()
        let t = try fixture.tenant()
        let ios = try fixture.app(key: t.key, #"{"platform":"ios","bundleId":"com.example.NoStoreId"}"#)
        let bare = try #require(try fixture.link(key: t.key, #"{"fallbackUrl":"https://example.com/a"}"#)["token"]
            as? String)
        let noStoreId = try #require(try fixture.link(
            key: t.key, #"{"fallbackUrl":"https://example.com/b","iosAppId":"\#(ios)"}"#)["token"] as? String)
        #expect(fixture.follow(bare, userAgent: F.androidAgent).headers["Location"] == "https://example.com/a")
        #expect(fixture.follow(bare, userAgent: F.iPhoneAgent).headers["Location"] == "https://example.com/a")
        #expect(fixture.follow(bare, userAgent: nil).headers["Location"] == "https://example.com/a")
        #expect(fixture.follow(noStoreId, userAgent: F.iPhoneAgent).headers["Location"] == "https://example.com/b")
        #expect(try fixture.clicks(org: t.org).allSatisfy { $0["platform"] == "web" })
    }

    @Test func aClickTakesTheWebSessionOfSOrOfTheSameBrowsersClickWithin30MinutesAndXTestMarksTestTraffic() throws {
        let fixture = try F.migrated()
        let t = try fixture.tenant()
        let token = try #require(try fixture.link(key: t.key, #"{"fallbackUrl":"https://example.com/"}"#)["token"]
            as? String)
        _ = fixture.follow(token, userAgent: F.desktopAgent, query: ["s": "web-session-1"])
        fixture.clock.set(F.start.addingTimeInterval(29 * 60))
        _ = fixture.follow(token, userAgent: F.desktopAgent, query: ["x3_test": "1"])
        // Another browser (user agent) at the same address is not the same visitor.
        fixture.clock.set(F.start.addingTimeInterval(29 * 60 + 1))
        _ = fixture.follow(token, userAgent: F.androidAgent)
        // 31 minutes after the last sighting with a session: no match; a malformed s is ignored, not refused.
        fixture.clock.set(F.start.addingTimeInterval(61 * 60))
        let late = fixture.follow(token, userAgent: F.desktopAgent, query: ["s": "bad session!"])
        #expect(late.status == 302)
        let clicks = try fixture.clicks(org: t.org)
        #expect(clicks.map { $0["web_session_id"] } == ["web-session-1", "web-session-1", nil, nil])
        #expect(clicks.map { $0["test"] } == ["false", "true", "false", "false"])
        #expect(clicks[0]["visitor_hash"] == clicks[1]["visitor_hash"])
        #expect(clicks[0]["visitor_hash"] != clicks[2]["visitor_hash"])
    }

    @Test func unknownAndMalformedTokensAnswerThePlainPageAndRecordNothing() throws {
        let fixture = try F.migrated()
        let t = try fixture.tenant()
        _ = try fixture.link(key: t.key, #"{"fallbackUrl":"https://example.com/"}"#)
        for ref in ["AAAAAAAAAAAAAAAAAAAAAA", "short", "spring", String(repeating: "A", count: 23)] {
            let page = fixture.follow(ref, userAgent: F.iPhoneAgent)
            #expect(page.status == 404)
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(page.headers["Cache-Control"] == "no-store" && page.headers["Set-Cookie"] == nil)
            #expect(bodyText(page).contains("Link not found"))
        }
        #expect(try fixture.clicks(org: t.org).isEmpty)
    }

    @Test func refusalsNameTheirField() throws {
        let fixture = try F.migrated()
        let t = try tenantWithApps(fixture)
        let cases: [(String, Int, String, String)] = [
            (#"{"fallbackUrl":"ftp://example.com/"}"#, 400, "VALIDATION_FALLBACK_URL_FORMAT", "fallbackUrl"),
            (#"{}"#, 400, "VALIDATION_FAILED", "fallbackUrl"),
            (#"{"fallbackUrl":"https://e.com/","utm":{"source":"a b"}}"#, 400, "VALIDATION_UTM_FORMAT", "utm.source"),
            (#"{"fallbackUrl":"https://e.com/","utm":{"id":"x"}}"#, 400, "VALIDATION_FAILED", "utm.id"),
            (#"{"fallbackUrl":"https://e.com/","code":"a/b"}"#, 400, "VALIDATION_LINK_CODE_FORMAT", "code"),
            (#"{"fallbackUrl":"https://e.com/","appStore":{"pt":"x1"}}"#, 400, "VALIDATION_APP_STORE_TOKEN_FORMAT",
             "appStore.pt"),
            (#"{"fallbackUrl":"https://e.com/","iosAppId":"nope"}"#, 400, "VALIDATION_APP_ID_FORMAT", "iosAppId"),
            (#"{"fallbackUrl":"https://e.com/","iosAppId":"\#(t.android)"}"#, 400, "VALIDATION_LINK_APP_PLATFORM",
             "iosAppId"),
            (#"{"fallbackUrl":"https://e.com/","androidAppId":"\#(UUID().uuidString.lowercased())"}"#, 404,
             "NOT_FOUND", "androidAppId"),
            (#"{"fallbackUrl":"https://e.com/","color":"red"}"#, 400, "VALIDATION_FAILED", "color"),
        ]
        for (body, status, code, field) in cases {
            let response = fixture.send(.post, "/s2s/v1/links", key: t.key, body: body)
            #expect(response.status == status, "\(body)")
            #expect(jsonObject(response)["code"] as? String == code, "\(body): \(bodyText(response))")
            #expect((jsonObject(response)["message"] as? String)?.contains(field) == true, "\(body)")
        }
        _ = try fixture.link(key: t.key, #"{"fallbackUrl":"https://e.com/","code":"taken"}"#)
        let taken = fixture.send(.post, "/s2s/v1/links", key: t.key,
                                 body: #"{"fallbackUrl":"https://e.com/","code":"taken"}"#)
        #expect(taken.status == 409 && jsonObject(taken)["code"] as? String == "LINK_CODE_TAKEN")
        // Past 2048 characters (the route's 16 KiB body limit itself is the server's 413, before any handler).
        let long = fixture.send(.post, "/s2s/v1/links", key: t.key,
                                body: #"{"fallbackUrl":"https://e.com/\#(String(repeating: "a", count: 2040))"}"#)
        #expect(long.status == 400 && jsonObject(long)["code"] as? String == "VALIDATION_FALLBACK_URL_FORMAT")
        #expect(fixture.send(.post, "/s2s/v1/links", key: "sk_live_nope",
                             body: #"{"fallbackUrl":"https://e.com/"}"#).status == 401)
        // Only the one link was created.
        #expect(try #require(jsonObject(fixture.send(.get, "/s2s/v1/links", key: t.key))["links"] as? [Any])
            .count == 1)
    }

    @Test func anotherOrganizationNeitherSeesTheLinksNorUsesTheAppsNorTheCode() throws {
        let fixture = try F.migrated()
        let a = try tenantWithApps(fixture)
        let b = try fixture.tenant()
        _ = try fixture.link(key: a.key, #"{"fallbackUrl":"https://a.example.com/","code":"shared"}"#)
        let listed = fixture.send(.get, "/s2s/v1/links", key: b.key)
        #expect(listed.status == 200 && bodyText(listed) == #"{"links":[]}"#)
        let foreign = fixture.send(.post, "/s2s/v1/links", key: b.key,
                                   body: #"{"fallbackUrl":"https://b.example.com/","iosAppId":"\#(a.ios)"}"#)
        #expect(foreign.status == 404 && jsonObject(foreign)["code"] as? String == "NOT_FOUND")
        // Codes are unique per organization: B may take A's.
        #expect(try fixture.link(key: b.key, #"{"fallbackUrl":"https://b.example.com/","code":"shared"}"#)["code"]
            as? String == "shared")
    }

    @Test func clicksOverTheLimitAre429AndWithoutTheIdentitySecrets503() throws {
        let limited = try F.migrated(goLinkLimit: TestIdentity.uniqueLimit(count: 1))
        let t = try limited.tenant()
        let token = try #require(try limited.link(key: t.key, #"{"fallbackUrl":"https://e.com/"}"#)["token"]
            as? String)
        #expect(limited.follow(token, userAgent: F.desktopAgent).status == 302)
        let over = limited.follow(token, userAgent: F.desktopAgent)
        #expect(over.status == 429 && over.headers["Retry-After"] != nil)
        #expect(limited.follow(token, userAgent: F.desktopAgent, clientIP: "198.51.100.71").status == 302)
        let unkeyed = try F.migrated(identity: nil)
        #expect(unkeyed.follow(token, userAgent: F.desktopAgent).status == 503)
    }

    @Test func theAdminCLICreatesAndListsLinksAndRefusesBadFlags() throws {
        let fixture = try F.migrated()
        let t = try tenantWithApps(fixture)
        let created = try fixture.tenants.admin([
            "link", "create", "--project", t.project, "--fallback-url", "https://example.com/cli",
            "--android-app", t.android, "--utm-source", "cli", "--code", "cli1",
        ])
        #expect(created.status == .exited(0))
        let link = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
        #expect(link["androidAppId"] as? String == t.android && link["code"] as? String == "cli1")
        #expect((link["url"] as? String)?.contains("/v1/go/") == true)
        let listed = try fixture.tenants.admin(["link", "list", "--project", t.project])
        #expect(listed.status == .exited(0) && listed.stdout.contains("cli1"))
        let bad = try fixture.tenants.admin(["link", "create", "--project", t.project, "--fallback-url", "nope"])
        #expect(bad.status == .exited(2) && bad.stderr.contains("--fallback-url"))
        let wrongPlatform = try fixture.tenants.admin([
            "link", "create", "--project", t.project, "--fallback-url", "https://e.com/", "--ios-app", t.android,
        ])
        #expect(wrongPlatform.status == .exited(2) && wrongPlatform.stderr.contains("iosAppId"))
    }
}
