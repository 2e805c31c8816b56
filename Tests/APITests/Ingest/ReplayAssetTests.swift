import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Issue 21, screenshots in the replay: `GET /replay/{token}/assets/{sha}` answers a stored screenshot of the
/// token's app with its type; every other case is the same 404 — a malformed `sha`, an unknown one, another app's
/// screenshot, a tampered token.
@Suite struct ReplayAssetTests {
    private func open(_ fixture: IngestFixture, _ path: String) -> Response {
        fixture.api.respond(to: publicRequest(path, query: [:]))
    }

    /// An app recording with screenshots on, one packet of session `sid` holding the fixture's screenshot; the app
    /// and a replay token for the session.
    private func recorded(_ fixture: IngestFixture, sid: String) throws -> (IngestFixture.App, String) {
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--recording", "on",
                                   "--recording-screenshots", "on"]).status == .exited(0))
        let at = Int(Date().timeIntervalSince1970 * 1000)
        let events = RRWebFixture.events(at: at) + RRWebFixture.screenshotEvent(at: at + 450) + "\n"
        let header = RRWebFixture.header(key: app.key, sid: sid, at: at)
        let sent = fixture.recording(try RRWebFixture.packet(header: header, events: events))
        #expect(bodyText(sent) == "ok")
        let link = fixture.apps.send(.post, "/s2s/v1/apps/\(app.appId)/recordings/replay-links", key: app.tenant.key,
                                     body: #"{"sessionId":"\#(sid)"}"#)
        return (app, try #require(jsonObject(link)["token"] as? String))
    }

    @Test func aStoredScreenshotIsAnsweredWithItsTypeForTheTokensAppOnly() throws {
        let fixture = try IngestFixture.migrated()
        let (_, token) = try recorded(fixture, sid: "S-shot")
        let sha = RRWebFixture.screenshotSha
        let image = open(fixture, "/replay/\(token)/assets/\(sha)")
        #expect(image.status == 200)
        #expect(image.body == Array(try #require(Data(base64Encoded: RRWebFixture.screenshotPNG))))
        #expect(image.headers["Content-Type"] == "image/png" && image.headers["X-Content-Type-Options"] == "nosniff")
        #expect(image.headers["Referrer-Policy"] == "no-referrer")
        // The events keep the reference without the bytes; the page asks for them by sha.
        let events = bodyText(open(fixture, "/replay/\(token)/events"))
        #expect(events.contains(sha) && !events.contains(RRWebFixture.screenshotPNG))

        // Another app (another org) with the same screenshot: its token opens its own copy, not this one's id.
        let (_, other) = try recorded(fixture, sid: "S-other")
        #expect(open(fixture, "/replay/\(other)/assets/\(sha)").status == 200)
        let tampered = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
        for path in ["/replay/\(token)/assets/\(String(repeating: "0", count: 64))",
                     "/replay/\(token)/assets/\(sha.uppercased())", "/replay/\(token)/assets/\(sha.prefix(63))",
                     "/replay/\(tampered)/assets/\(sha)"] {
            let refused = open(fixture, path)
            #expect(refused.status == 404, "\(path)")
            #expect(jsonObject(refused)["code"] as? String == "NOT_FOUND", "\(path)")
        }
    }

    @Test func anotherAppsScreenshotIsNotFoundThroughThisAppsToken() throws {
        let fixture = try IngestFixture.migrated()
        let (app, _) = try recorded(fixture, sid: "S-shot")
        // A second app of the same project, screenshots on, that never sent this image.
        let bare = try fixture.app(bundleId: "com.example.Bare", tenant: app.tenant)
        let link = fixture.apps.send(.post, "/s2s/v1/apps/\(bare.appId)/recordings/replay-links", key: app.tenant.key,
                                     body: #"{"sessionId":"S-bare"}"#)
        let token = try #require(jsonObject(link)["token"] as? String)
        #expect(open(fixture, "/replay/\(token)/assets/\(RRWebFixture.screenshotSha)").status == 404)
    }
}
