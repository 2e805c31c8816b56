import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /v1/m/postbacks/{kind}/{endpoint}` and `GET /s2s/v1/apps/{appId}/postbacks` (issue 21): Apple's published
/// postbacks through a proxy key, counted per ad network and source identifier; forged copies stored (capped) but
/// never counted; a signed copy replaces a failed one; trailing slashes; the refusals; another org's key and app.
@Suite struct PostbackCopyTests {
    /// The App Store id of Apple's SKAdNetwork examples and of its AdAttributionKit example.
    static let skanAppId: Int64 = 525_463_029
    static let aakAppId: Int64 = 10_738_027_756

    struct Setup {
        let fixture: IngestFixture
        let tenant: (org: String, project: String, key: String)
        let appId: String
        let proxyKey: String
    }

    private func setup() throws -> Setup {
        let fixture = try IngestFixture.migrated()
        let tenant = try fixture.apps.tenants.tenant()
        let app = try fixture.apps.createApp(
            key: tenant.key, #"{"platform":"ios","bundleId":"com.example.Reader","appAppleId":\#(Self.skanAppId)}"#)
        return Setup(fixture: fixture, tenant: tenant, appId: try #require(app["appId"] as? String),
                     proxyKey: try proxyKey(fixture, org: tenant.org))
    }

    /// Another iOS app of the setup's project with App Store id `appleId`.
    private func app(_ setup: Setup, appleId: Int64) throws -> [String: Any] {
        try setup.fixture.apps.createApp(key: setup.tenant.key,
                                         #"{"platform":"ios","bundleId":"com.example.O\#(appleId)","#
                                             + #""appAppleId":\#(appleId)}"#)
    }

    private func proxyKey(_ fixture: IngestFixture, org: String) throws -> String {
        let outcome = try fixture.apps.tenants.admin(["link", "proxy-key", "--org", org, "--domains", "example.com"])
        guard outcome.status == .exited(0),
              let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
              let key = json["proxyKey"] as? String
        else { throw AdminFailed(outcome: outcome.stderr) }
        return key
    }

    private func post(_ setup: Setup, _ body: String, kind: String = "skan", path: String? = nil,
                      key: String?? = .none) -> Response {
        var headers = [("Content-Type", "application/json")]
        if let key = key ?? setup.proxyKey { headers.append((ProxyKey.header, key)) }
        return setup.fixture.api.respond(to: Request(
            method: .post, path: path ?? "/v1/m/postbacks/\(kind)/report-attribution/", query: [:],
            headers: Headers(headers), body: Array(body.utf8), clientIP: "198.51.100.80",
            remoteAddress: "198.51.100.80"))
    }

    private func read(_ setup: Setup, key: String? = nil, appId: String? = nil, _ query: [String: String] = [:])
        -> Response {
        setup.fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(appId ?? setup.appId)/postbacks", query: query,
            headers: Headers([("Authorization", "Bearer " + (key ?? setup.tenant.key))]), clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    /// The groups of the read as `kind network source postbacks/won/development`, and the failed count.
    private func aggregates(_ setup: Setup, appId: String? = nil) -> (groups: [String], failed: Int?) {
        let answer = jsonObject(read(setup, appId: appId))
        let groups = (answer["groups"] as? [[String: Any]] ?? []).map { group in
            "\(group["kind"] ?? "") \(group["adNetworkId"] ?? "") \(group["sourceIdentifier"] ?? "") "
                + "\(group["postbacks"] ?? "")/\(group["won"] ?? "")/\(group["development"] ?? "")"
        }
        return (groups, answer["failed"] as? Int)
    }

    private func expectTaken(_ response: Response, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(bodyText(response) == #"{"ok":true}"#, sourceLocation: sourceLocation)
        #expect(response.headers["Location"] == nil, sourceLocation: sourceLocation)
    }

    @Test func applesSignedPostbacksAreCountedPerNetworkAndSourceIdentifierWithOrWithoutTheSlash() throws {
        let setup = try setup()
        let aakApp = try app(setup, appleId: Self.aakAppId)
        expectTaken(post(setup, ApplePostbackExamples.skan3Winning))
        expectTaken(post(setup, ApplePostbackExamples.skan3NotWinning,
                         path: "/v1/m/postbacks/skan/report-attribution"))
        expectTaken(post(setup, ApplePostbackExamples.skan4High))
        expectTaken(post(setup, ApplePostbackExamples.skan4Low))
        // A second copy of the same transaction counts once.
        expectTaken(post(setup, ApplePostbackExamples.skan4Low))
        let response = read(setup)
        #expect(response.status == 200)
        let answer = jsonObject(response)
        #expect(answer["appId"] as? String == setup.appId && answer["from"] is String && answer["to"] is String)
        #expect(aggregates(setup).groups == [
            "skan com.example 39 1/1/0", "skan com.example 5239 1/1/0", "skan example123.skadnetwork 42 2/1/0",
        ])
        #expect(aggregates(setup).failed == 0)
        // AdAttributionKit: Apple's example is signed with a development key, shown apart and not counted.
        expectTaken(post(setup, ApplePostbackExamples.aakDevelopment, kind: "aak"))
        let aakAppId = try #require(aakApp["appId"] as? String)
        #expect(aggregates(setup, appId: aakAppId).groups == ["aak development.adattributionkit 1234 0/0/1"])
        // A range that ends before the postbacks arrived holds none.
        let past = jsonObject(read(setup, ["from": "2020-01-01T00:00:00Z", "to": "2020-02-01T00:00:00Z"]))
        #expect((past["groups"] as? [Any])?.isEmpty == true && past["failed"] as? Int == 0)
    }

    @Test func aForgedCopyIsStoredButNeverCountedAndTheSignedCopyReplacesIt() throws {
        let setup = try setup()
        let forged = ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"5239\"", with: "\"5238\"")
        expectTaken(post(setup, forged))
        #expect(aggregates(setup).groups.isEmpty && aggregates(setup).failed == 1)
        expectTaken(post(setup, ApplePostbackExamples.skan4High))
        #expect(aggregates(setup).groups == ["skan com.example 5239 1/1/0"] && aggregates(setup).failed == 0)
        // A forged copy of a transaction already signed changes nothing.
        expectTaken(post(setup, forged))
        #expect(aggregates(setup).groups == ["skan com.example 5239 1/1/0"] && aggregates(setup).failed == 0)
        // Naming Apple's production key does not make an AdAttributionKit postback count.
        let aakApp = try #require(try app(setup, appleId: 684_939)["appId"] as? String)
        expectTaken(post(setup, ApplePostbackExamples.aakProductionKid, kind: "aak"))
        #expect(aggregates(setup, appId: aakApp).groups.isEmpty && aggregates(setup, appId: aakApp).failed == 1)
    }

    @Test func failedCopiesAreKeptAtMost100PerProjectAndHour() throws {
        let setup = try setup()
        for index in 0..<101 {
            let forged = ApplePostbackExamples.skan4Low.replacingOccurrences(
                of: "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31", with: "forged-\(index)")
            expectTaken(post(setup, forged))
        }
        #expect(aggregates(setup).failed == PostbackStore.failedPerHour)
        // A signed copy is never capped.
        expectTaken(post(setup, ApplePostbackExamples.skan4Low))
        #expect(aggregates(setup).groups == ["skan com.example 39 1/1/0"])
    }

    @Test func racingCopiesKeepTheCapExactAndTheSignedCopyWins() throws {
        let setup = try setup()
        // A signed copy and forged copies of one transaction, at once: the signed one is what stays.
        let signed = ApplePostbackExamples.skan3Winning
        let forgedWin = signed.replacingOccurrences(of: "\"campaign-id\": 42", with: "\"campaign-id\": 41")
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            _ = post(setup, index == 3 ? signed : forgedWin)
        }
        #expect(aggregates(setup).groups == ["skan example123.skadnetwork 42 1/1/0"] && aggregates(setup).failed == 0)
        for index in 0..<95 {
            expectTaken(post(setup, forged(index)))
        }
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            _ = post(setup, forged(100 + index))
        }
        #expect(aggregates(setup).failed == PostbackStore.failedPerHour)
    }

    /// Apple's low-tier version 4 example with a transaction id of its own: a failed signature.
    private func forged(_ index: Int) -> String {
        ApplePostbackExamples.skan4Low.replacingOccurrences(of: "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31",
                                                            with: "forged-\(index)")
    }

    @Test func copiesWithoutAValidProxyKeyOrForAnotherOrgsAppAreRefused() throws {
        let setup = try setup()
        let body = ApplePostbackExamples.skan4High
        for key in [String?.none, "px_nope", "px_" + String(repeating: "A", count: 32)] {
            let refused = post(setup, body, key: .some(key))
            #expect(refused.status == 403 && bodyText(refused) == #"{"ok":false,"code":"key"}"#)
        }
        // Another org's proxy key: the App Store id is not one of its apps.
        let stranger = try setup.fixture.apps.tenants.tenant()
        let strangerKey = try proxyKey(setup.fixture, org: stranger.org)
        let foreign = post(setup, body, key: .some(strangerKey))
        #expect(foreign.status == 403 && bodyText(foreign) == #"{"ok":false,"code":"app_mismatch"}"#)
        let unregistered = post(setup, body.replacingOccurrences(of: "525463029", with: "525463030"))
        #expect(unregistered.status == 403 && bodyText(unregistered) == #"{"ok":false,"code":"app_mismatch"}"#)
        #expect(aggregates(setup).groups.isEmpty && aggregates(setup).failed == 0)
        // Another org's secret key reads nothing of the app.
        let other = read(setup, key: stranger.key)
        #expect(other.status == 404 && jsonObject(other)["code"] as? String == "NOT_FOUND")
    }

    @Test func aWrongKindEndpointOrBodyIs400NamingIt() throws {
        let setup = try setup()
        func detail(_ response: Response) -> String? {
            #expect(response.status == 400 && jsonObject(response)["code"] as? String == "invalid")
            return jsonObject(response)["detail"] as? String
        }
        #expect(detail(post(setup, ApplePostbackExamples.skan4High, kind: "skadnetwork"))
                == "kind must be skan or aak")
        #expect(detail(post(setup, ApplePostbackExamples.skan4High, path: "/v1/m/postbacks/skan/report/"))
                == "endpoint must be report-attribution")
        #expect(detail(post(setup, ApplePostbackExamples.skan4High, kind: "aak"))
                == "jws-string must be a string of 1 to 4096 characters")
        #expect(detail(post(setup, ApplePostbackExamples.aakDevelopment, kind: "skan"))
                == "version must be a string of 1 to 8 characters")
        let old = ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"4.0\"", with: "\"2.2\"")
        #expect(detail(post(setup, old)) == "version must be 3.0 or 4.0")
        #expect(detail(post(setup, "{")) == "body must be one JSON object")
        let range = read(setup, ["from": "yesterday"])
        #expect(range.status == 400 && bodyText(range).contains("from"))
    }
}
