import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// A recorded session's replay (issue 21): `POST /s2s/v1/apps/{appId}/recordings/replay-links`, the page and the
/// events its token opens, and every refusal (body, another org's app, tampered, other-purpose and expired tokens).
@Suite struct ReplayLinkTests {
    private func open(_ fixture: IngestFixture, _ path: String) -> Response {
        fixture.api.respond(to: publicRequest(path, query: [:]))
    }

    private func recordedApp(_ fixture: IngestFixture, sid: String) throws -> IngestFixture.App {
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on"]).status == .exited(0))
        let at = Int(Date().timeIntervalSince1970 * 1000)
        let header = RRWebFixture.header(key: app.key, sid: sid, at: at)
        let sent = fixture.recording(try RRWebFixture.packet(header: header, events: RRWebFixture.events(at: at)))
        #expect(sent.status == 200 && bodyText(sent) == "ok", "\(bodyText(sent))")
        return app
    }

    private func link(_ fixture: IngestFixture, _ app: IngestFixture.App, key: String? = nil,
                      body: String = #"{"sessionId":"S-replay"}"#) -> Response {
        fixture.apps.send(.post, "/s2s/v1/apps/\(app.appId)/recordings/replay-links", key: key ?? app.tenant.key,
                          body: body)
    }

    @Test func aReplayLinkOpensThePageAndTheSessionsEvents() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordedApp(fixture, sid: "S-replay")
        let created = link(fixture, app)
        #expect(created.status == 200, "\(bodyText(created))")
        let answer = jsonObject(created)
        let token = try #require(answer["token"] as? String)
        #expect(answer["url"] as? String == "https://handoff.example.com/replay/\(token)")
        #expect(token.range(of: "^[A-Za-z0-9_-]{98,438}$", options: .regularExpression) != nil)

        let page = open(fixture, "/replay/\(token)")
        #expect(page.status == 200)
        let policy = page.headers["Content-Security-Policy"] ?? ""
        #expect(policy.contains("script-src 'self';") && policy.contains("default-src 'none'"), "\(policy)")
        #expect(!policy.contains("unsafe-eval") && page.headers["Cache-Control"] == "no-store")
        #expect(bodyText(page).contains(#"<script src="../replay-player.js"></script>"#))
        #expect(!bodyText(page).contains("<script>"), "no inline script")

        let events = open(fixture, "/replay/\(token)/events")
        #expect(events.status == 200)
        let body = jsonObject(events)
        #expect(body["sessionId"] as? String == "S-replay" && body["truncated"] as? Bool == false)
        let types = (body["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? Int }
        #expect(types == [4, 2, 3, 3, 3])
        #expect(bodyText(events).contains(RRWebFixture.mutationText))

        // A session without packets gets a link too: its page loads and says there is nothing to replay.
        let empty = jsonObject(link(fixture, app, body: #"{"sessionId":"S-none"}"#))["token"] as? String ?? ""
        #expect((jsonObject(open(fixture, "/replay/\(empty)/events"))["events"] as? [Any])?.isEmpty == true)
    }

    @Test func refusalsAndTheOne404() throws {
        let fixture = try IngestFixture.migrated()
        let app = try recordedApp(fixture, sid: "S-replay")
        #expect(link(fixture, app, body: "{}").status == 400)
        #expect(bodyText(link(fixture, app, body: #"{"sessionId":""}"#)).contains("sessionId"))
        #expect(link(fixture, app, body: #"{"sessionId":"S","extra":1}"#).status == 400)
        let bad = fixture.apps.send(.post, "/s2s/v1/apps/not-an-app/recordings/replay-links", key: app.tenant.key,
                                    body: #"{"sessionId":"S-replay"}"#)
        #expect(bad.status == 400)

        // Another org's secret key: 404 for this app, as for any app it does not own.
        let other = try fixture.app()
        let foreign = link(fixture, app, key: other.tenant.key)
        #expect(foreign.status == 404, "\(bodyText(foreign))")

        let token = try #require(jsonObject(link(fixture, app))["token"] as? String)
        var tampered = Array(token)
        tampered[60] = tampered[60] == "A" ? "B" : "A"
        let notFound = open(fixture, "/replay/\(String(tampered))")
        #expect(notFound.status == 404 && bodyText(notFound).contains("invalid or has expired"))
        #expect(open(fixture, "/replay/\(String(tampered))/events").status == 404)

        // The dashboard's token opens no replay, and a replay token no dashboard: the purpose is signed.
        let dashboard = try #require(jsonObject(fixture.apps.send(.post, "/s2s/v1/dashboard-links",
                                                                  key: app.tenant.key))["token"] as? String)
        #expect(open(fixture, "/replay/\(dashboard)").status == 404)
        #expect(open(fixture, "/dashboard/\(token)").status == 404)

        // Expired: the same codec an hour and a second later.
        let links = DashboardLinks(masterKey: TestIdentity.secrets().masterKey)
        let later = Date().addingTimeInterval(DashboardLinks.lifetime + 1)
        #expect(links.open(token, purpose: .replay, now: Date()) != nil)
        #expect(links.open(token, purpose: .replay, now: later) == nil)
        #expect(links.open(token, now: Date()) == nil)
    }
}
