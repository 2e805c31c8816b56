@testable import API
import Foundation
import HTTPServer
import Testing

/// `POST /s2s/v1/dashboard-links` and `GET /dashboard/{token}` (issue 18): a link valid one hour, the page in English
/// or Russian with inline SVG charts and a strict policy, one 404 page for tampered and expired links, and a link of
/// another organization's project showing only that project.
@Suite struct DashboardTests {
    typealias W = DiagnosticsWorld

    func link(_ world: W, key: String? = nil) -> Response {
        world.world.api.respond(to: s2sRequest(.post, "/s2s/v1/dashboard-links", key: key ?? world.world.tenant.key))
    }

    func page(_ world: W, _ token: String, language: String = "en-US,en;q=0.9") -> Response {
        world.world.api.respond(to: Request(method: .get, path: "/dashboard/\(token)",
                                            headers: Headers([("Accept-Language", language)])))
    }

    @Test func aLinkOpensTheDashboardForOneHourInEnglishOrRussian() throws {
        let world = try W(settings: ["--fingerprint", "off"])
        _ = try world.world.pay()
        let answer = link(world)
        #expect(answer.status == 200)
        let json = jsonObject(answer)
        let token = try #require(json["token"] as? String)
        #expect(token.count == 75)
        #expect(json["url"] as? String == "https://handoff.example.com/dashboard/\(token)")
        #expect(json["expiresAt"] as? String == "2027-01-15T09:00:00.000Z")

        let english = page(world, token)
        #expect(english.status == 200)
        #expect(english.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(english.headers["Cache-Control"] == "no-store")
        #expect(english.headers["Content-Security-Policy"] == DashboardPageHTML.contentSecurityPolicy)
        #expect(DashboardPageHTML.contentSecurityPolicy.hasPrefix("default-src 'none'; style-src 'sha256-"))
        let html = bodyText(english)
        #expect(html.contains(#"<html lang="en">"#) && html.contains("<h1>Handoff dashboard</h1>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 4)
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("src="))
        #expect(html.contains("<td>pi_1</td>") && html.contains("not identified yet: fingerprinting is off"))
        let russian = bodyText(page(world, token, language: "ru-RU,ru;q=0.9"))
        #expect(russian.contains(#"<html lang="ru">"#) && russian.contains("Панель передачи"))

        world.world.clock.advance(3599.749)
        #expect(page(world, token).status == 200)
        world.world.clock.advance(0.01)
        let expired = page(world, token)
        #expect(expired.status == 404 && expired.body == DashboardPageHTML.notFound.body)
    }

    @Test func aTamperedLinkIsTheOne404AndAnotherOrganizationsLinkShowsOnlyItsProject() throws {
        let world = try W(settings: ["--fingerprint", "off"])
        _ = try world.world.pay()
        let token = try #require(jsonObject(link(world))["token"] as? String)
        var bytes = Array(token.utf8)
        bytes[10] = bytes[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        for bad in [String(decoding: bytes, as: UTF8.self), String(token.dropLast()), "x"] {
            let answer = page(world, bad)
            #expect(answer.status == 404 && answer.body == DashboardPageHTML.notFound.body, "\(bad)")
        }
        let other = try world.world.fixture.tenant()
        let theirs = try #require(jsonObject(link(world, key: other.key))["token"] as? String)
        let html = bodyText(page(world, theirs))
        #expect(html.contains(other.project) && !html.contains(world.world.tenant.project))
        #expect(!html.contains("pi_1"))
        #expect(link(world, key: "sk_live_nope").status == 401)
    }
}
