import Foundation
import HTTPClient
import Testing
import TestSupport

/// `/docs` (issue 13): a real `handoff serve`, the page in headless Chromium, Redoc from this build rendering every
/// operation of `/openapi.json`, and no request leaving the server (Redoc's footer logo from its CDN is stopped by
/// the page's Content-Security-Policy before it is sent).
@Suite struct DocsBrowserTests {
    private func get(_ url: String) throws -> HTTPResponse {
        try HTTPClient(maxResponseBytes: 4 << 20).send(HTTPRequest(method: "GET", url: url, headers: [], body: [],
                                                                   totalTimeout: 20))
    }

    @Test(.enabled(if: HeadlessChromium.shouldRun,
                   "headless chromium cannot run here (infra/test installs it, and requires it)"))
    func chromiumRendersEveryOperationFromThisServerAlone() throws {
        if let failure = HeadlessChromium.failure {
            Issue.record("HANDOFF_TEST_REQUIRE_BROWSER=1 but headless chromium cannot run: \(failure)")
            return
        }
        let serve = try ServeProcess(database: try ScratchDatabase.migrated(prefix: "tenants"))
        defer { serve.stop() }
        let host = serve.host

        let page = try get("http://\(host)/docs")
        #expect(page.status == 200)
        #expect(page.headers.first { $0.0.lowercased() == "content-type" }?.1 == "text/html; charset=utf-8")
        let script = try get("http://\(host)/docs/redoc.standalone.js")
        #expect(script.status == 200 && script.body.count > 500_000)
        let document = try JSONSerialization.jsonObject(with: Data(try get("http://\(host)/openapi.json").body))
        let paths = (document as? [String: Any])?["paths"] as? [String: [String: Any]] ?? [:]
        let operations = paths.values.map(\.count).reduce(0, +)

        let child = try ChildProcess([
            "python3", HandoffBinary.packageRoot() + "/Tests/Peers/docs_browser.py", "--url", "http://\(host)/docs",
            "--timeout", "60",
        ])
        let status = try child.wait(timeout: 180)
        let output = child.output()
        #expect(status == .exited(0), "\(output)")
        let line = output.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        let shown = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        #expect(shown["operations"] as? Int == operations, "\(output.suffix(3000))")
        let text = shown["text"] as? String ?? ""
        for summary in ["Record a payment", "Exchange a handoff code or install token", "The key's project settings"] {
            #expect(text.contains(summary), "\(summary)")
        }
        #expect(shown["hosts"] as? [String] == [host], "the page fetched from elsewhere: \(shown["hosts"] ?? "")")
        #expect((shown["blocked"] as? [String])?.contains(host) == false)
        #expect((shown["errors"] as? [Any])?.isEmpty == true, "\(shown["errors"] ?? "")")
    }
}
