import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /a/{refCode}` (issue 15): a click recorded as an event and a row, a signed click id, 302 to the landing URL.
@Suite struct AffiliateLinkTests {
    private typealias F = AffiliateFixture

    @Test func followingALinkRecordsTheClickAndRedirectsWithTheSignedClickID() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let campaign = try fixture.campaign(key: a.key, #"{"name":"L","commission":\#(F.percent),"windowDays":7}"#)
        let affiliate = try fixture.affiliate(key: a.key, campaign: campaign, refCode: "JANE234")
        let response = fixture.follow("jane234", project: a.project)
        #expect(response.status == 302)
        #expect(response.body.isEmpty)
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Referrer-Policy"] == "no-referrer")
        #expect(response.headers["Set-Cookie"] == nil)
        let click = try #require(F.clickID(response))
        // The paywall URL (no landing URL set) with click= added to its query.
        #expect(response.headers["Location"] == "https://pay.example.com/checkout?plan=pro&click=\(click)")
        // The id names project, affiliate, campaign and click, expiring with the campaign's window.
        let parsed = try SignedClickID.parse(click).get()
        let claims = try SignedClickID.verify(parsed, now: F.start, keys: TestIdentity.secrets().passKeys).get()
        #expect(claims.project.description == a.project)
        #expect(claims.affiliate.description == affiliate["affiliateId"] as? String)
        #expect(claims.campaign.description == campaign)
        #expect(claims.expiresAt == F.start.addingTimeInterval(7 * 86_400))
        // One event and one row, neither with the client's address or user agent.
        let owner = try fixture.owner()
        let event = try #require(try owner.query("""
            SELECT data::text AS data, stream_id FROM events
            WHERE org_id = $1::uuid AND event_type = 'AffiliateLinkClicked'
            """, [.text(a.org)]).rows.first)
        let data = try event.string("data")
        #expect(try event.string("stream_id") == "affiliate-click-\(claims.click)")
        #expect(!data.contains("198.51.100") && !data.contains("iPhone"))
        #expect(data.contains(#""source": "link""#) || data.contains(#""source":"link""#))
        let row = try #require(try owner.query("""
            SELECT click_id::text AS click_id, source, expires_at = to_timestamp(1900604800) AS expiry_ok
            FROM affiliate_clicks WHERE org_id = $1::uuid
            """, [.text(a.org)]).rows.first)
        #expect(row["click_id"] == claims.click.description && row["source"] == "link")
        #expect(try row.bool("expiry_ok"))
    }

    @Test func theLandingURLWinsOverThePaywallURLAndAFragmentStaysLast() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let campaign = try fixture.campaign(key: a.key)
        _ = try fixture.affiliate(key: a.key, campaign: campaign, refCode: "LAND2345")
        let patched = fixture.send(.patch, "/s2s/v1/project", key: a.key,
                                   body: #"{"landingUrl":"https://app.example.com/welcome#top"}"#)
        #expect(patched.status == 200 && jsonObject(patched)["landingUrl"] as? String
            == "https://app.example.com/welcome#top")
        let response = fixture.follow("LAND2345", project: a.project)
        let click = try #require(F.clickID(response))
        #expect(response.headers["Location"] == "https://app.example.com/welcome?click=\(click)#top")
        // Cleared, the link falls back to the paywall URL.
        #expect(fixture.send(.patch, "/s2s/v1/project", key: a.key, body: #"{"landingUrl":null}"#).status == 200)
        let fallback = fixture.follow("LAND2345", project: a.project)
        #expect(fallback.headers["Location"]?.hasPrefix("https://pay.example.com/checkout?plan=pro&click=c1.") == true)
    }

    @Test func unknownMalformedAndForeignCodesAnswerTheOnePlainPageAndRecordNothing() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        _ = try fixture.affiliate(key: a.key, campaign: try fixture.campaign(key: a.key), refCode: "ALLYA234")
        let page = fixture.follow("NEPE2345", project: a.project)
        #expect(page.status == 404)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Cache-Control"] == "no-store" && page.headers["Set-Cookie"] == nil)
        #expect(bodyText(page).contains("Link not found"))
        for response in [
            fixture.follow("ALLYA234", project: b.project),       // another org's project
            fixture.follow("ALLYA234", project: UUID().uuidString), // no such project
            fixture.follow("ALLYA234", project: "not-a-uuid"),
            fixture.follow("SHORT"), fixture.follow("IIIIIIII"), fixture.follow("ABCDEF!"),
            fixture.follow(String(repeating: "A", count: 17)),
        ] {
            #expect(response.status == 404 && response.body == page.body)
        }
        #expect(try fixture.count("affiliate_clicks", org: a.org) == 0)
        #expect(try fixture.events("AffiliateLinkClicked", org: a.org) == 0)
    }

    @Test func aBareCodeResolvesOnlyWhileOneProjectHoldsIt() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        // A code of its own in the whole deployment (other tests share the database's Redis, not its rows).
        let code = "BARE" + String((0..<8).map { _ in "23456789ABCDEFGHJKLMNPQRSTUVWXYZ".randomElement()! })
        _ = try fixture.affiliate(key: a.key, campaign: try fixture.campaign(key: a.key), refCode: code)
        let bare = fixture.follow(code)
        #expect(bare.status == 302)
        let claims = try SignedClickID.parse(try #require(F.clickID(bare))).get().claims
        #expect(claims.project.description == a.project)
        // Once another project (here of another org) holds it too, only links naming the project work.
        _ = try fixture.affiliate(key: b.key, campaign: try fixture.campaign(key: b.key), refCode: code)
        #expect(fixture.follow(code).status == 404)
        #expect(fixture.follow(code, project: a.project).status == 302)
        #expect(fixture.follow(code, project: b.project).status == 302)
        #expect(try fixture.count("affiliate_clicks", org: a.org) == 2)
        #expect(try fixture.count("affiliate_clicks", org: b.org) == 1)
    }

    @Test func aProjectWithoutLandingOrPaywallURLHasNoWorkingLinks() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant([])
        _ = try fixture.affiliate(key: a.key, campaign: try fixture.campaign(key: a.key), refCode: "NWHERE23")
        #expect(fixture.follow("NWHERE23", project: a.project).status == 404)
        #expect(try fixture.count("affiliate_clicks", org: a.org) == 0)
    }

    @Test func sixtyPerMinutePerClientAddressThenRedisDownIs503() throws {
        let limit = TestIdentity.uniqueLimit(count: 60)
        let redis = try ScratchRedis()
        let fixture = try F.migrated(affiliateLinkLimit: limit, redisURL: redis.url)
        let a = try fixture.tenant()
        _ = try fixture.affiliate(key: a.key, campaign: try fixture.campaign(key: a.key), refCode: "LMT23456")
        // 60 at once; then 429 (a request may slip through as the budget refills, one per second).
        let responses = (0..<64).map { _ in fixture.follow("LMT23456", project: a.project, clientIP: "192.0.2.90") }
        let statuses = responses.map(\.status)
        #expect(statuses.prefix(60) == ArraySlice(repeating: 302, count: 60))
        #expect(statuses.last == 429 && statuses.filter { $0 == 302 }.count <= 62)
        let over = try #require(responses.last)
        #expect(over.headers["Retry-After"] != nil && jsonObject(over)["code"] as? String == "RATE_LIMITED")
        #expect(fixture.follow("LMT23456", project: a.project, clientIP: "192.0.2.91").status == 302)
        #expect(Environment.defaultAffiliateLinkLimit == RateLimit.perWindow(
            name: "affiliate-link", count: 60, seconds: 60, onFailure: .closed))
        redis.pause()
        defer { redis.resume() }
        let down = fixture.follow("LMT23456", project: a.project, clientIP: "192.0.2.92")
        #expect(down.status == 503 && down.headers["Retry-After"] != nil)
        // A refused request records no click.
        #expect(try fixture.count("affiliate_clicks", org: a.org) == statuses.filter { $0 == 302 }.count + 1)
    }

    @Test func withoutIdentitySecretsLinksAnswer503() throws {
        let fixture = try F.migrated(identity: nil)
        let a = try fixture.tenant()
        _ = try fixture.affiliate(key: a.key, campaign: try fixture.campaign(key: a.key), refCode: "KEYLESS2")
        let response = fixture.follow("KEYLESS2", project: a.project)
        #expect(response.status == 503 && response.headers["Retry-After"] == "60")
    }
}
