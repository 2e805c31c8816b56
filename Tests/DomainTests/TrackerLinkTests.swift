import Domain
import Foundation
import Testing

/// `TrackerLink` (issue 5, "Tracker deep links"): each tracker, each link form, kept parameters, fragments, encoding.
struct TrackerLinkTests {
    static let token = InstallToken.parse("WXYZ6789")!
    static let project = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    static let adjTRule = "carry its own adj_t parameter: an Adjust *.go.link or *.adj.st link without it answers 404"

    /// One row: the configured link, the payment's paywall id, the project's return scheme, the destination, and
    /// the exact URL expected.
    struct Row: CustomTestStringConvertible, Sendable {
        var link: String
        var paywallId: String?
        var scheme: String?
        var destination: TrackerLink.Destination
        var expected: String
        var testDescription: String { "\(link) → \(destination)" }
    }

    static let ours = "deep_link_value=handoff&deep_link_sub1=WXYZ6789&af_sub1=WXYZ6789"
    static let sub3 = "deep_link_sub3=\(project)"

    static let appsFlyerRows: [Row] = [
        // A OneLink with its own parameters, a paywall id that needs encoding, the store button.
        Row(link: "https://myapp.onelink.me/AbCd?pid=email&c=handoff", paywallId: "pw:1", scheme: "myapp",
            destination: .store,
            expected: "https://myapp.onelink.me/AbCd?pid=email&c=handoff&\(ours)&deep_link_sub2=pw%3A1&\(sub3)"
                + "&deep_link_sub4=store"),
        // No query, no paywall id (no deep_link_sub2), the app button.
        Row(link: "https://myapp.onelink.me/AbCd", paywallId: nil, scheme: nil, destination: .app,
            expected: "https://myapp.onelink.me/AbCd?\(ours)&\(sub3)&deep_link_sub4=app"),
        // Parameters Handoff owns are replaced, never duplicated, even percent-encoded names; the rest stay in order.
        Row(link: "https://myapp.onelink.me/AbCd?deep_link_value=promo&pid=x&af_sub1=old&deep%5Flink%5Fsub2=stale"
                + "&af_dp=myapp%3A%2F%2F",
            paywallId: nil, scheme: nil, destination: .app,
            expected: "https://myapp.onelink.me/AbCd?pid=x&af_dp=myapp%3A%2F%2F&\(ours)&\(sub3)&deep_link_sub4=app"),
        // The fragment stays last; a `?` inside the fragment is not a query.
        Row(link: "https://myapp.onelink.me/AbCd?pid=x#top", paywallId: "pw_1", scheme: nil, destination: .store,
            expected: "https://myapp.onelink.me/AbCd?pid=x&\(ours)&deep_link_sub2=pw_1&\(sub3)&deep_link_sub4=store"
                + "#top"),
        Row(link: "https://myapp.onelink.me/AbCd#frag?x=1", paywallId: nil, scheme: nil, destination: .app,
            expected: "https://myapp.onelink.me/AbCd?\(ours)&\(sub3)&deep_link_sub4=app#frag?x=1"),
        // Empty parameters and a trailing `?`/`&` leave no empty pairs.
        Row(link: "https://go.brand.example/A?&pid=x&&", paywallId: nil, scheme: nil, destination: .app,
            expected: "https://go.brand.example/A?pid=x&\(ours)&\(sub3)&deep_link_sub4=app"),
        Row(link: "https://app.appsflyer.com/id123?", paywallId: nil, scheme: nil, destination: .store,
            expected: "https://app.appsflyer.com/id123?\(ours)&\(sub3)&deep_link_sub4=store"),
    ]

    static let innerStore = "user_id%3DWXYZ6789%26project_id%3D\(project)%26destination%3Dstore"

    static let adjustRows: [Row] = [
        // Classic link with a return scheme: deep_link carries the encoded app link (the paywall id encoded twice).
        Row(link: "https://app.adjust.com/abc123?campaign=spring", paywallId: "pw:1", scheme: "myapp",
            destination: .store,
            expected: "https://app.adjust.com/abc123?campaign=spring&user_id=WXYZ6789&adj_label=WXYZ6789"
                + "&deep_link=myapp%3A%2F%2Fhandoff%3Fuser_id%3DWXYZ6789%26paywall_id%3Dpw%253A1"
                + "%26project_id%3D\(project)%26destination%3Dstore"),
        Row(link: "https://app.adjust.com/abc123", paywallId: nil, scheme: "my+app", destination: .app,
            expected: "https://app.adjust.com/abc123?user_id=WXYZ6789&adj_label=WXYZ6789"
                + "&deep_link=my%2Bapp%3A%2F%2Fhandoff%3Fuser_id%3DWXYZ6789%26project_id%3D\(project)"
                + "%26destination%3Dapp"),
        // Its own deep_link and user_id are replaced when Handoff sets them; the fragment stays last.
        Row(link: "https://APP.adjust.com/abc123?deep_link=old%3A%2F%2F&user_id=x&label=y#f", paywallId: nil,
            scheme: "myapp", destination: .store,
            expected: "https://APP.adjust.com/abc123?label=y&user_id=WXYZ6789&adj_label=WXYZ6789"
                + "&deep_link=myapp%3A%2F%2Fhandoff%3F\(innerStore)#f"),
        // Classic link without a return scheme: no deep_link, and its own deep_link is kept.
        Row(link: "https://app.adjust.com/abc123?deep_link=old%3A%2F%2F&adj_label=z", paywallId: "pw_1",
            scheme: nil, destination: .store,
            expected: "https://app.adjust.com/abc123?deep_link=old%3A%2F%2F&user_id=WXYZ6789&adj_label=WXYZ6789"),
        // Universal links (go.link, adj.st) with adj_t: never a deep_link, even with a return scheme.
        Row(link: "https://myapp.go.link/handoff?adj_t=abc123&adj_campaign=x", paywallId: "pw_1", scheme: "myapp",
            destination: .app,
            expected: "https://myapp.go.link/handoff?adj_t=abc123&adj_campaign=x&user_id=WXYZ6789"
                + "&adj_label=WXYZ6789"),
        Row(link: "https://app.adj.st/handoff?adj_t=abc123#x", paywallId: nil, scheme: "myapp", destination: .store,
            expected: "https://app.adj.st/handoff?adj_t=abc123&user_id=WXYZ6789&adj_label=WXYZ6789#x"),
        // A branded domain is taken as a plain link.
        Row(link: "https://links.brand.example/abc", paywallId: nil, scheme: "myapp", destination: .app,
            expected: "https://links.brand.example/abc?user_id=WXYZ6789&adj_label=WXYZ6789"),
    ]

    private func build(_ row: Row, tracker: ProjectSettings.Tracker) throws -> String {
        let link = try TrackerLink.parse(row.link, tracker: tracker).get()
        return link.url(token: Self.token, paywallId: row.paywallId,
                        projectId: try ProjectID.parse(Self.project).get(),
                        returnScheme: try row.scheme.map { try ReturnScheme.parse($0).get() },
                        destination: row.destination)
    }

    @Test(arguments: appsFlyerRows)
    func appsFlyerLinksCarryTheWordHandoffTheTokenPaywallProjectAndDestination(row: Row) throws {
        #expect(try build(row, tracker: .appsflyer) == row.expected)
    }

    @Test(arguments: adjustRows)
    func adjustLinksCarryTheTokenAndClassicLinksADeepLinkIntoTheApp(row: Row) throws {
        #expect(try build(row, tracker: .adjust) == row.expected)
    }

    @Test func theTwoDestinationsDifferOnlyInWhereTheButtonLeads() throws {
        var row = Self.appsFlyerRows[0]
        let store = try build(row, tracker: .appsflyer)
        row.destination = .app
        #expect(try build(row, tracker: .appsflyer)
            == store.replacingOccurrences(of: "deep_link_sub4=store", with: "deep_link_sub4=app"))
        #expect(!store.contains("deep_link_value=WXYZ6789"))
    }

    @Test(arguments: ["https://myapp.go.link/handoff", "https://myapp.go.link/handoff?adj_t=",
                      "https://myapp.go.link/handoff?adj_tx=1&x=adj_t", "https://MyApp.Go.Link/h?campaign=1",
                      "https://app.adj.st/handoff", "https://app.adj.st/handoff#adj_t=abc", "https://go.link/x"])
    func adjustUniversalLinksWithoutTheirOwnAdjTAreRefused(link: String) {
        #expect(TrackerLink.parse(link, tracker: .adjust)
            == .failure(FieldRefusal(field: "trackerLink", code: .trackerLinkAdjTRequired, rule: Self.adjTRule)))
    }

    @Test func theAdjTRuleIsAdjustsOnly() throws {
        #expect(try TrackerLink.parse("https://myapp.go.link/handoff", tracker: .appsflyer).get().text
            == "https://myapp.go.link/handoff")
    }

    @Test(arguments: ["http://myapp.onelink.me/A", "myapp.onelink.me/A", "https://user@myapp.onelink.me/A",
                      "https://myapp.onelink.me/a b"])
    func linksThatAreNotHTTPSURLsAreRefused(link: String) {
        #expect(TrackerLink.parse(link, tracker: .appsflyer, field: "--tracker-link")
            == .failure(FieldRefusal(field: "--tracker-link", code: .trackerLinkFormat,
                                     rule: "be an absolute https URL without user info")))
    }

    @Test func noTrackerHasNoLink() {
        #expect(TrackerLink.parse("https://myapp.onelink.me/A", tracker: .none)
            == .failure(FieldRefusal(field: "trackerLink", code: .trackerLinkFormat,
                                     rule: "be null while the tracker is none")))
    }

    @Test func configuringAnAdjustUniversalLinkWithoutAdjTIsRefusedNamingTheField() throws {
        let base = ProjectSettings(name: "App")
        var change = ProjectSettingsChange(fields: .flags)
        change.tracker = .adjust
        change.trackerLink = .set("https://myapp.go.link/handoff")
        #expect(base.applying(change) == .failure(FieldRefusal(
            field: "--tracker-link", code: .trackerLinkAdjTRequired, rule: Self.adjTRule)))
        change.trackerLink = .set("https://myapp.go.link/handoff?adj_t=abc123")
        #expect(try base.applying(change).get().trackerLink == "https://myapp.go.link/handoff?adj_t=abc123")
        // Switching the tracker to Adjust re-checks the stored link.
        let appsFlyer = ProjectSettings(name: "App", tracker: .appsflyer, trackerLink: "https://myapp.go.link/h")
        var toAdjust = ProjectSettingsChange()
        toAdjust.tracker = .adjust
        #expect(appsFlyer.applying(toAdjust) == .failure(FieldRefusal(
            field: "trackerLink", code: .trackerLinkAdjTRequired, rule: Self.adjTRule)))
        // A change that leaves tracker and link alone does not trip over a link stored before the rule.
        let legacy = ProjectSettings(name: "App", tracker: .adjust, trackerLink: "https://myapp.go.link/h")
        var rename = ProjectSettingsChange()
        rename.name = .set("Renamed")
        #expect(try legacy.applying(rename).get().name == "Renamed")
    }
}
