import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Synchronization
import Testing
import TestSupport

extension IngestFixture {
    /// `POST /v1/m/install` with `body`, from the Android SDK unless `userAgent` says otherwise.
    func install(_ body: [UInt8], gzip: Bool = false, userAgent: String = "X3Android/2.0.1 (Android 14) Flutter/3.22.0",
                 clientIP: String = "198.51.100.73") -> Response {
        var headers: [(String, String)] = [("Content-Type", "application/json"), ("User-Agent", userAgent)]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return api.respond(to: Request(method: .post, path: "/v1/m/install", query: [:], headers: Headers(headers),
                                       body: body, clientIP: clientIP, remoteAddress: clientIP))
    }
}

/// `POST /v1/m/install` (issue 20): tiers and their precedence, consent, idempotence, the tier as an event, gzip,
/// another app's key, another org's app, malformed bodies.
@Suite struct IngestInstallTests {
    static let bid = "com.example.reader"

    /// An install of `inst` from the Android app `bid`, its first open an hour before `at`, with `sources` (JSON
    /// members, each with a leading comma).
    static func install(key: String, inst: String = "I-77A0", plat: String = "android", bid: String = bid,
                        cs: String = "gggg", sources: String = "") -> String {
        let at = Int(Date().timeIntervalSince1970 * 1000)
        return #"{"v":1,"k":"\#(key)","app":{"plat":"\#(plat)","bid":"\#(bid)","av":"3.1.0"},"inst":"\#(inst)","#
            + #""at":\#(at),"cm":"opt_in","cs":"\#(cs)","first":\#(at - 3_600_000)\#(sources)}"#
    }

    static let paidReferrer = #","play":{"ref":"utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale"#
        + #"&gclid=Cj0KCQ&x3c=clk_7Hq2","clk":1764630000,"ins":1764630060,"ver":"3.1.0"}"#

    private func app(_ fixture: IngestFixture, tenant: (org: String, project: String, key: String)? = nil,
                     bundleId: String = bid) throws -> IngestFixture.App {
        try fixture.app(platform: "android", bundleId: bundleId, tenant: tenant)
    }

    private func installs(_ fixture: IngestFixture, app: String) throws -> [Row] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT tier, day::text AS day, installed_at, sdk, sdk_version, wrapper, wrapper_version, utm_source,
                utm_medium, utm_campaign, gclid, x3c, apple_ads_token, link, install_hash
            FROM app_installs WHERE app_id = $1::uuid ORDER BY installed_at
            """, [.text(app)]).rows
    }

    private func events(_ fixture: IngestFixture, app: String) throws -> [String] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT data::text AS data FROM events WHERE event_type = 'AppInstallRecorded' AND data->>'appId' = $1
            ORDER BY global_pos
            """, [.text(app)]).rows.map { try $0.string("data") }
    }

    private func gzip(_ text: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(text.utf8).base64EncodedString()])
        return Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    @Test func aPaidPlayReferrerIsTierReferrerRecordedOnceAsAnEventEvenWhenResentGzipped() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let body = Self.install(key: app.key, sources: Self.paidReferrer)
        let first = fixture.install(Array(body.utf8))
        #expect(first.status == 200)
        #expect(first.headers["Content-Type"] == "application/json")
        #expect(bodyText(first) == #"{"ok":true,"tier":"referrer"}"#)
        // Re-sent, even with other sources: the tier recorded first, nothing recorded again.
        let organic = Self.install(key: app.key,
                                   sources: #","play":{"ref":"utm_source=google-play&utm_medium=organic"}"#)
        #expect(bodyText(fixture.install(try gzip(organic), gzip: true)) == #"{"ok":true,"tier":"referrer"}"#)
        #expect(bodyText(fixture.install(Array(body.utf8))) == #"{"ok":true,"tier":"referrer"}"#)
        let rows = try installs(fixture, app: app.appId)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        // Journey keys sealed for the install (docs/app-identity.md "Journey keys"), campaign fields in clear.
        let hash = try row.string("install_hash")
        #expect(try row.string("tier") == "referrer")
        #expect(try fixture.opened(row["x3c"], .x3c, org: app.tenant.org, installHash: hash) == "clk_7Hq2")
        #expect(try fixture.opened(row["gclid"], .gclid, org: app.tenant.org, installHash: hash) == "Cj0KCQ")
        #expect(try row.string("utm_source") == "newsletter" && row.string("utm_medium") == "email")
        #expect(try row.string("utm_campaign") == "spring sale")
        // The native SDK and the Flutter wrapper, each with its version.
        #expect(try row.string("sdk") == "X3Android" && row.string("sdk_version") == "2.0.1")
        #expect(try row.string("wrapper") == "Flutter" && row.string("wrapper_version") == "3.22.0")
        // The first open, corrected by the server clock, an hour ago.
        let ago = try fixture.apps.tenants.ownerConnection().query("""
            SELECT extract(epoch FROM now() - installed_at) AS s FROM app_installs WHERE app_id = $1::uuid
            """, [.text(app.appId)]).rows[0].string("s")
        #expect(abs((Double(ago) ?? 0) - 3600) < 120)
        let recorded = try events(fixture, app: app.appId)
        #expect(recorded.count == 1)
        #expect(recorded.first?.contains(#""tier": "referrer""#) == true)
        #expect(recorded.first?.contains(#""sdk": "X3Android""#) == true)
        #expect(recorded.first?.contains(#""wrapper": "Flutter""#) == true)
        #expect(recorded.first?.contains(#""wrapperVersion": "3.22.0""#) == true)
        #expect(recorded.first?.contains("clk_7Hq2") == false && recorded.first?.contains("Cj0KCQ") == false)
        let sealedX3c = try row.string("x3c")
        #expect(recorded.first?.contains(sealedX3c) == true)
        // The install id is only a keyed hash, in the row and in the event.
        #expect(try row.string("install_hash").count == 64)
        #expect(recorded.first?.contains("I-77A0") == false)
    }

    @Test func racingSendsOfOneInstallRecordOneEventAndAnswerOneTier() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let bodies = [Self.install(key: app.key, sources: Self.paidReferrer), Self.install(key: app.key)]
        let answers = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let text = bodyText(fixture.install(Array(bodies[index % 2].utf8)))
            answers.withLock { $0.append(text) }
        }
        #expect(Set(answers.withLock { $0 }).count == 1)
        #expect(try installs(fixture, app: app.appId).count == 1)
        #expect(try events(fixture, app: app.appId).count == 1)
    }

    @Test func eachTierFollowsThePrecedenceAndTwoInstallsAreTwoRows() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let asa = #","asa":{"token":"QUFBQUFBQUFBQUFB+/=="}"#
        let link = #","link":{"s":"https://go.example.com/r/abc","t":1764630000000,"tok":"t-1","code":"abc"}"#
        let cases: [(String, String)] = [
            (Self.paidReferrer + asa + link, "referrer"),
            (#","play":{"ref":"utm_source=google-play&utm_medium=organic"}"# + asa + link, "pending"),
            (link, "link"),
            (#","link":"https://go.example.com/r/abc""#, "link"),
            (#","play":{"ref":"utm_source=google-play&utm_medium=organic"}"#, "organic"),
            ("", "organic"),
        ]
        for (index, (sources, tier)) in cases.enumerated() {
            let response = fixture.install(Array(Self.install(key: app.key, inst: "I-\(index)", sources: sources).utf8))
            #expect(bodyText(response) == #"{"ok":true,"tier":"\#(tier)"}"#, "\(sources)")
        }
        let rows = try installs(fixture, app: app.appId)
        #expect(rows.count == cases.count)
        let org = app.tenant.org
        let pending = try #require(rows.first { try $0.string("tier") == "pending" })
        #expect(try fixture.opened(pending["apple_ads_token"], .appleAdsToken, org: org,
                                   installHash: pending.string("install_hash")) == "QUFBQUFBQUFBQUFB+/==")
        #expect(try rows.filter { try $0.string("tier") == "link" }.map {
            try fixture.opened($0["link"], .link, org: org, installHash: $0.string("install_hash")) ?? ""
        }.sorted() == [#"https://go.example.com/r/abc"#,
                    #"{"code":"abc","s":"https://go.example.com/r/abc","t":1764630000000,"tok":"t-1"}"#])
        #expect(try rows.filter { try $0.string("tier") == "referrer" }.map { $0["apple_ads_token"] }
                == [nil])
    }

    @Test func withoutAttributionConsentTheTierIsUnknownAndNoSourceIsKept() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let sources = Self.paidReferrer + #","asa":{"token":"QUFB"},"link":"https://go.example.com/r/abc""#
        for (index, cs) in ["gdgg", "gpgg", "gxgg", "dddd"].enumerated() {
            let body = Self.install(key: app.key, inst: "U-\(index)", cs: cs, sources: sources)
            #expect(bodyText(fixture.install(Array(body.utf8))) == #"{"ok":true,"tier":"unknown"}"#)
        }
        let rows = try installs(fixture, app: app.appId)
        #expect(rows.count == 4)
        for row in rows {
            for column in ["utm_source", "utm_medium", "utm_campaign", "gclid", "x3c", "apple_ads_token", "link"] {
                #expect(row[column] == nil, "\(column)")
            }
        }
        #expect(try events(fixture, app: app.appId).allSatisfy { !$0.contains("clk_7Hq2") && !$0.contains("QUFB") })
    }

    @Test func anotherAppsKeyAnotherOrgsAppAnUnknownKeyAndAPausedAppAreRefused() throws {
        let fixture = try IngestFixture.migrated()
        let mine = try app(fixture)
        let sibling = try app(fixture, tenant: mine.tenant, bundleId: "com.example.sibling")
        let foreign = try app(fixture, bundleId: "com.example.foreign")
        for other in [sibling, foreign] {
            let response = fixture.install(Array(Self.install(key: other.key).utf8))
            #expect(response.status == 403)
            #expect(bodyText(response) == #"{"ok":false,"code":"app_mismatch"}"#)
        }
        #expect(bodyText(fixture.install(Array(Self.install(key: mine.key, plat: "ios").utf8)))
                == #"{"ok":false,"code":"app_mismatch"}"#)
        let unknown = fixture.install(Array(Self.install(key: "pk_3x_" + String(repeating: "Q", count: 32)).utf8))
        #expect(unknown.status == 403 && bodyText(unknown) == #"{"ok":false,"code":"key"}"#)
        #expect(try fixture.admin(["ingest-settings", "--app", mine.appId, "--enabled", "off"]).status == .exited(0))
        let paused = fixture.install(Array(Self.install(key: mine.key).utf8))
        #expect(paused.status == 403 && bodyText(paused) == #"{"ok":false,"code":"disabled"}"#)
        for app in [mine, sibling, foreign] { #expect(try installs(fixture, app: app.appId).isEmpty) }
    }

    @Test func malformedInstallsAre400NamingThePartAndOversizedOnes413() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        let good = Self.install(key: app.key, sources: Self.paidReferrer)
        let cases: [(String, String)] = [
            ("{}", "v is required"),
            ("[]", "body is not a JSON object"),
            (good.replacingOccurrences(of: #""inst":"I-77A0","#, with: ""), "inst is required"),
            (good.replacingOccurrences(of: #""cm":"opt_in","#, with: ""), "cm is required"),
            (good.replacingOccurrences(of: #""cs":"gggg""#, with: #""cs":"ggg""#),
             "cs must be 4 characters of g, d, p, x"),
            (good.replacingOccurrences(of: #""first":"#, with: #""first":"yes","x":"#),
             "first must be a boolean or Unix milliseconds"),
            (good.replacingOccurrences(of: #""ref":"#, with: #""x":"#), "play.ref is required"),
            (good.replacingOccurrences(of: #""clk":1764630000"#, with: #""clk":-1"#),
             "play.clk must be a whole number ≥ 0"),
            (Self.install(key: app.key, sources: #","asa":{"token":""}"#), "asa.token must be 1 to 4096 bytes of text"),
            (Self.install(key: app.key, sources: #","link":7"#), "link must be text or an object"),
            (Self.install(key: app.key, sources: #","link":"a\u0001b""#),
             "link must be 1 to 2048 bytes of text or an object"),
        ]
        for (body, detail) in cases {
            let response = fixture.install(Array(body.utf8))
            #expect(response.status == 400, "\(detail)")
            #expect(bodyText(response) == #"{"ok":false,"code":"invalid","detail":"\#(detail)"}"#)
        }
        let large = Self.install(key: app.key, sources: #","pad":""# + String(repeating: "x", count: 17_000) + "\"")
        let refused = fixture.install(Array(large.utf8))
        #expect(refused.status == 413 && bodyText(refused) == #"{"ok":false,"code":"too_large"}"#)
        let bomb = fixture.install(try gzip(Self.install(key: app.key, sources: #","pad":""#
            + String(repeating: " ", count: 20_000) + "\"")), gzip: true)
        #expect(bomb.status == 413 && bodyText(bomb) == #"{"ok":false,"code":"too_large"}"#)
        #expect(try installs(fixture, app: app.appId).isEmpty)
    }

    @Test func replayRebuildsTheInstallsEqualToTheLiveRows() throws {
        let fixture = try IngestFixture.migrated()
        let app = try app(fixture)
        _ = fixture.install(Array(Self.install(key: app.key, inst: "R-1", sources: Self.paidReferrer).utf8))
        _ = fixture.install(Array(Self.install(key: app.key, inst: "R-2", cs: "gdgg").utf8))
        let owner = try fixture.apps.tenants.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM app_installs WHERE app_id = $1::uuid ORDER BY install_hash",
                            [.text(app.appId)]).rows.map(\.values)
        }
        let live = try snapshot()
        #expect(live.count == 2)
        try owner.execute("DELETE FROM app_installs")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("app_installs"))
        #expect(try snapshot() == live)
    }
}
