import Foundation
import HTTPClient
import Testing
import TestSupport

/// A recorded session's replay end to end (issue 21): a real `handoff serve`, the rrweb fixture sent as an SDK's
/// packet to `POST /v1/m/r`, a replay link minted over S2S, the page opened in headless Chromium: the vendored
/// rrweb-player builds its replay frame from the full snapshot and applies the incremental mutation. The screenshot
/// is written under `.build/test-screenshots/` and its path printed in the test output.
@Suite struct ReplayBrowserTests {
    private func send(_ method: String, _ url: String, key: String? = nil, body: [UInt8] = [],
                      contentType: String = "application/json") throws -> HTTPResponse {
        var headers = [("Content-Type", contentType)]
        if let key { headers.append(("Authorization", "Bearer " + key)) }
        return try HTTPClient().send(HTTPRequest(method: method, url: url, headers: headers, body: body,
                                                 totalTimeout: 20))
    }

    private static func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// The replay frame's document, from the page (rrweb's frame is same-origin: `sandbox="allow-same-origin"`).
    private static let frameText = "(document.querySelector('.replayer-wrapper iframe') || {}).contentDocument"
        + " && document.querySelector('.replayer-wrapper iframe').contentDocument.body"
        + " && document.querySelector('.replayer-wrapper iframe').contentDocument.body.innerText"

    @Test(.enabled(if: HeadlessChromium.shouldRun,
                   "headless chromium cannot run here (infra/test installs it, and requires it)"))
    func chromiumPlaysARecordedSessionWithTheVendoredPlayer() throws {
        if let failure = HeadlessChromium.failure {
            Issue.record("HANDOFF_TEST_REQUIRE_BROWSER=1 but headless chromium cannot run: \(failure)")
            return
        }
        let database = try ScratchDatabase.migrated(prefix: "tenants")
        let tenant = try database.tenant(["--fingerprint", "off"])
        let serve = try ServeProcess(database: database)
        defer { serve.stop() }
        let base = serve.base

        let created = try send("POST", base + "/s2s/v1/apps", key: tenant.key,
                               body: Array(#"{"platform":"ios","bundleId":"com.example.Reader"}"#.utf8))
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let appId = try #require(Self.json(created)["appId"] as? String)
        let publishable = try #require(Self.json(created)["publishableKey"] as? String)
        let settings = try database.admin(["app", "ingest-settings", "--app", appId, "--recording", "on",
                                           "--recording-screenshots", "on"],
                                          environment: ["HANDOFF_MASTER_KEY": ServeProcess.masterKey])
        try #require(settings.status == .exited(0), "\(settings)")
        let at = Int(Date().timeIntervalSince1970 * 1000)
        let packet = try RRWebFixture.packet(header: RRWebFixture.header(key: publishable, sid: "S-browser", at: at),
                                             events: RRWebFixture.events(at: at)
                                                + RRWebFixture.screenshotEvent(at: at + 450) + "\n")
        let sent = try send("POST", base + "/v1/m/r", body: packet, contentType: "application/octet-stream")
        try #require(sent.status == 200 && String(decoding: sent.body, as: UTF8.self) == "ok",
                     "\(String(decoding: sent.body, as: UTF8.self))")

        let link = try send("POST", base + "/s2s/v1/apps/\(appId)/recordings/replay-links", key: tenant.key,
                            body: Array(#"{"sessionId":"S-browser"}"#.utf8))
        try #require(link.status == 200, "\(String(decoding: link.body, as: UTF8.self))")
        let url = try #require(Self.json(link)["url"] as? String)
        #expect(url.hasPrefix(base + "/replay/"))
        let script = try send("GET", base + "/replay-player.js")
        #expect(script.status == 200 && String(decoding: script.body, as: UTF8.self).contains("rrwebPlayer"))

        let folder = HandoffBinary.packageRoot() + "/.build/test-screenshots"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/replay.png"
        let browser = PageBrowser(userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0",
                                  acceptLanguage: "en-US,en;q=0.9", width: 1024, height: 900, timezone: "UTC")
        let frameText = Self.frameText
        let shown = "document.body.getAttribute('data-screenshot')"
        let visit = try browser.open(url, options: [
            "--ready-expression=(\(frameText) || '').indexOf('\(RRWebFixture.mutationText)') >= 0 && \(shown)",
            "--report-expression=JSON.stringify({frame: \(frameText) || null, "
                + "players: document.querySelectorAll('.rr-player').length, "
                + "state: document.body.getAttribute('data-replay'), screenshot: \(shown), "
                + "width: (document.querySelector('#screenshot img') || {}).naturalWidth || 0})",
            "--screenshot=\(path)",
        ])
        #expect(visit.termination == .exited(0), "\(visit.output)")
        let report = (visit.result["report"] as? String).flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        } ?? [:]
        #expect(report["state"] as? String == "ready", "\(visit.output)")
        #expect(report["players"] as? Int == 1, "\(visit.output)")
        let frame = report["frame"] as? String ?? ""
        // The full snapshot's heading, the mutated total, and the line only the incremental mutation adds.
        #expect(frame.contains(RRWebFixture.snapshotText) && frame.contains("Total: 19.98 EUR")
                && frame.contains(RRWebFixture.mutationText), "\(visit.output)")
        #expect((visit.result["text"] as? String ?? "").contains("Session S-browser: 6 events"), "\(visit.output)")
        // The screenshot event showed its image, read from the replay asset route with the same token.
        #expect(report["screenshot"] as? String == RRWebFixture.screenshotSha, "\(visit.output)")
        #expect(report["width"] as? Int == 8, "\(visit.output)")
        let asset = try send("GET", url + "/assets/" + RRWebFixture.screenshotSha)
        let image = try #require(Data(base64Encoded: RRWebFixture.screenshotPNG))
        #expect(asset.status == 200 && asset.body == Array(image))
        let png = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(png.count > 1000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        print("replay screenshot: \(path) (\(png.count) bytes)")
    }
}
