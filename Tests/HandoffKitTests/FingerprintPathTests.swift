import Foundation
import HandoffKit
import Testing
import TestSupport

/// The fingerprint path: the real post-payment page in headless Chromium records the browser's fingerprint, then the
/// library, given the same device's traits, finds the buyer (issue 22).
@Suite struct FingerprintPathTests {
    static let iPhoneAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
        + "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

    /// Opens `url` in headless Chromium as the iPhone of `KitClients.iPhone` (Tests/Peers/page_browser.py).
    private func browse(_ url: String) async throws -> [String: Any] {
        let phone = KitClients.iPhone
        let browser = PageBrowser(userAgent: Self.iPhoneAgent, acceptLanguage: "de-DE,de;q=0.9",
                                  width: phone.screenWidth, height: phone.screenHeight, timezone: phone.timeZone ?? "")
        let visit = try await offPool { try browser.open(url) }
        #expect(visit.termination == .exited(0), "\(visit.output)")
        return visit.result
    }

    @Test(.enabled(if: HeadlessChromium.shouldRun,
                   "headless chromium cannot run here (infra/test installs it, and requires it)"))
    func theFingerprintThePageRecordedIdentifiesTheBuyerWithTheSameTraits() async throws {
        if let failure = HeadlessChromium.failure {
            Issue.record("HANDOFF_TEST_REQUIRE_BROWSER=1 but headless chromium cannot run: \(failure)")
            return
        }
        let server = try await HandoffServer.start(["--fingerprint", "on",
                                                    "--ios-bundle-id", "com.example.app"])
        let guid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
        let paid = try server.pay(guid: guid, paymentId: "pi_fp")
        let page = try #require((paid["handoff"] as? [String: Any])?["postPaymentUrl"] as? String)

        let shown = try await browse(page)
        #expect(shown["fingerprint"] as? String == "sent")
        #expect(shown["screen"] as? String == "393x852" && shown["timezone"] as? String == "Europe/Berlin")

        // A malformed bundle id is the app's build setting: a typed error, and nothing spent.
        var misbuilt = KitClients.iPhone
        misbuilt.bundleId = "com.example app"
        #expect(await KitClients.web2App(server, device: misbuilt).identify(deepLinkValue: nil)
            == .failed(.misconfiguredBundleId))
        // Another time zone contradicts the fingerprint: no match (and nothing spent).
        var elsewhere = KitClients.iPhone
        elsewhere.timeZone = "Asia/Tokyo"
        #expect(await KitClients.web2App(server, device: elsewhere).identify(deepLinkValue: nil)
            == .needsEmailFallback)

        let storage = InMemoryStorage()
        let client = KitClients.web2App(server, storage: storage, device: KitClients.iPhone)
        #expect(await client.identify(deepLinkValue: nil) == .identified(guid, via: .fingerprint(.exact)))
        // Kept, and the fingerprint is spent: another install of the same phone no longer matches.
        #expect(await KitClients.web2App(server, storage: storage).identify(deepLinkValue: nil)
            == .identified(guid, via: .fingerprint(.exact)))
        #expect(await KitClients.web2App(server, device: KitClients.iPhone).identify(deepLinkValue: nil)
            == .needsEmailFallback)
    }
}
