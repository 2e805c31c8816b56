import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /v1/m/batch` (issue 20): an AppBatch v1 in the protocol's shape (adapted keys), gzip, consent, clock skew,
/// duplicates, bots, another app's key, another org's app.
@Suite struct IngestBatchTests {
    /// A batch of one screen view and two events, the device clock `skew` seconds off (positive: ahead).
    static func batch(key: String, plat: String = "ios", bid: String = "com.example.Reader", cs: String = "gggg",
                      now: Date = Date(), skew: TimeInterval = 0, eventAge: TimeInterval = 30,
                      extra: String = "") -> String {
        let device = Int((now.timeIntervalSince1970 + skew) * 1000)
        let early = device - Int(eventAge * 1000)
        return #"{"v":1,"k":"\#(key)","app":{"plat":"\#(plat)","bid":"\#(bid)","av":"3.1.0","ab":"310","osv":"17.5.1","#
            + #""dc":"phone","sw":390,"sh":844,"loc":"en_US","tz":"Europe/Berlin","lib":"X3Kit","att":"authorized"},"#
            + #""inst":"I-4F2A","sid":"S-1","n":7,"at":\#(device),"cm":"opt_in","cs":"\#(cs)","#
            + #""dp":"\#(String(repeating: "0a", count: 32))","#
            + #""scr":[{"id":"v-1","seq":2,"t0":\#(early),"t1":\#(device),"nav":"push","path":"Home","eng":1800,"#
            + #""taps":3,"itaps":1}],"#
            + #""ev":[{"s":"S-1","n":1,"t":\#(early),"e":"app_open","p":{"cold":true}},"#
            + #"{"s":"S-1","n":2,"t":\#(device),"e":"purchase","p":{"orderId":"GPA.1","value":4.99}}]\#(extra)}"#
    }

    private func count(_ fixture: IngestFixture, _ table: String, app: String) throws -> Int {
        Int(try fixture.apps.tenants.ownerConnection().query(
            "SELECT count(*) AS n FROM \(table) WHERE app_id = $1::uuid", [.text(app)]).rows[0].string("n")) ?? -1
    }

    private func gzip(_ text: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(text.utf8).base64EncodedString()])
        return Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    @Test func aGrantedBatchIsStoredOnceEvenWhenSentAgainAndGzipped() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let rev = try #require(jsonObject(fixture.config(app.key, ["plat": "ios", "bid": "com.example.Reader"]))["rev"]
            as? Int)
        let body = Self.batch(key: app.key)
        let first = fixture.batch(Array(body.utf8))
        #expect(first.status == 200)
        #expect(bodyText(first) == #"{"ok":true,"stored":true,"rev":\#(rev)}"#)
        let again = fixture.batch(try gzip(body), gzip: true)
        #expect(bodyText(again) == #"{"ok":true,"stored":true,"rev":\#(rev)}"#)
        #expect(try count(fixture, "ingest_events", app: app.appId) == 2)
        #expect(try count(fixture, "ingest_screen_views", app: app.appId) == 1)
        let owner = try fixture.apps.tenants.ownerConnection()
        let session = try owner.query("""
            SELECT batches, sdk, sdk_version, os_version, app_version, consent, install_hash FROM ingest_sessions
            WHERE app_id = $1::uuid
            """, [.text(app.appId)]).rows
        #expect(session.count == 1)
        #expect(try session[0].string("batches") == "2" && session[0].string("sdk") == "X3Kit")
        #expect(try session[0].string("sdk_version") == "1.4.2" && session[0].string("os_version") == "17.5.1")
        #expect(try session[0].string("app_version") == "3.1.0" && session[0].string("consent") == "gggg")
        // The install id is kept only as a keyed hash.
        let hash = try session[0].string("install_hash")
        #expect(hash.count == 64 && !hash.contains("I-4F2A"))
        let dump = try owner.query("SELECT string_agg(e.props::text, ' ') AS t FROM ingest_events e "
            + "WHERE app_id = $1::uuid", [.text(app.appId)]).rows[0].string("t")
        #expect(!dump.contains("I-4F2A") && dump.contains(#""orderId": "GPA.1""#))
    }

    @Test func withoutAnalyticsConsentOrFromABotNothingIsStored() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        for cs in ["dggg", "pggg", "xggg"] {
            let response = fixture.batch(Array(Self.batch(key: app.key, cs: cs).utf8))
            #expect(response.status == 200)
            let rev = try #require(jsonObject(response)["rev"] as? Int)
            #expect(bodyText(response) == #"{"ok":true,"stored":false,"rev":\#(rev),"reason":"consent"}"#)
        }
        for agent in [nil, "curl/8.4.0", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"] {
            let response = fixture.batch(Array(Self.batch(key: app.key).utf8), userAgent: agent)
            #expect(jsonObject(response)["reason"] as? String == "bot")
        }
        // React Native and Flutter builds are the SDK too.
        let rn = fixture.batch(Array(Self.batch(key: app.key).utf8), userAgent: "X3Kit/1.4.2 (iOS 17.5.1) RN/0.74.1")
        #expect(jsonObject(rn)["stored"] as? Bool == true)
        #expect(try count(fixture, "ingest_events", app: app.appId) == 2)
    }

    /// The SDK columns of the app's one stored session: sdk, sdk_version, wrapper, wrapper_version, os_version.
    private func sdkColumns(_ fixture: IngestFixture, app: String) throws -> [[String?]] {
        try fixture.apps.tenants.ownerConnection().query("""
            SELECT sdk, sdk_version, wrapper, wrapper_version, os_version FROM ingest_sessions WHERE app_id = $1::uuid
            """, [.text(app)]).rows.map(\.values)
    }

    @Test func theNativeSDKAndTheWrapperAreRecordedEachWithItsVersion() throws {
        let fixture = try IngestFixture.migrated()
        let ios = try fixture.app()
        let rn = fixture.batch(Array(Self.batch(key: ios.key).utf8), userAgent: "X3Kit/1.4.2 (iOS 17.5.1) RN/0.74.1")
        #expect(bodyText(rn) == #"{"ok":true,"stored":true,"rev":\#(try #require(jsonObject(rn)["rev"] as? Int))}"#)
        #expect(try sdkColumns(fixture, app: ios.appId) == [["X3Kit", "1.4.2", "RN", "0.74.1", "17.5.1"]])
        let android = try fixture.app(platform: "android", bundleId: "com.example.reader")
        let androidBatch = Self.batch(key: android.key, plat: "android", bid: "com.example.reader")
        let flutter = fixture.batch(Array(androidBatch.utf8), userAgent: "X3Android/2.0.1 (Android 14) Flutter/3.22.0")
        #expect(jsonObject(flutter)["stored"] as? Bool == true)
        #expect(try sdkColumns(fixture, app: android.appId) == [["X3Android", "2.0.1", "Flutter", "3.22.0", "14"]])
        // A native build has no wrapper; the next batch of the session takes its user agent.
        #expect(jsonObject(fixture.batch(Array(Self.batch(key: ios.key).utf8)))["stored"] as? Bool == true)
        #expect(try sdkColumns(fixture, app: ios.appId) == [["X3Kit", "1.4.2", nil, nil, "17.5.1"]])
        // The export shows both.
        let today = String(RFC3339.format(Date().addingTimeInterval(-30)).prefix(10))
        let export = fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(android.appId)/export", query: ["day": today],
            headers: Headers([("Authorization", "Bearer " + android.tenant.key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
        let first = String(decoding: try export.stream?.drain() ?? export.body, as: UTF8.self)
            .split(separator: "\n").first.map(String.init) ?? ""
        let session = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(session["type"] as? String == "session" && session["sdk"] as? String == "X3Android")
        #expect(session["sdkVersion"] as? String == "2.0.1" && session["wrapper"] as? String == "Flutter")
        #expect(session["wrapperVersion"] as? String == "3.22.0" && session["osVersion"] as? String == "14")
    }

    @Test func theAppsSettingsPauseItDropBlockedEventsAndExcludedScreensAndRaiseRev() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let query = ["plat": "ios", "bid": "com.example.Reader"]
        let before = try #require(jsonObject(fixture.config(app.key, query))["rev"] as? Int)
        let changed = try fixture.admin(["ingest-settings", "--app", app.appId, "--blocked-events", "purchase",
                                         "--exclude-screens", "Ho*", "--leads", "on"])
        #expect(changed.status == .exited(0))
        let config = jsonObject(fixture.config(app.key, query))
        #expect(try #require(config["rev"] as? Int) > before)
        #expect((config["events"] as? [String: [String]])?["blocked"] == ["purchase"])
        #expect((config["screens"] as? [String: [String]])?["exclude"] == ["Ho*"])
        #expect((config["leads"] as? [String: Bool])?["enabled"] == true)
        #expect(jsonObject(fixture.batch(Array(Self.batch(key: app.key).utf8)))["stored"] as? Bool == true)
        // "purchase" was dropped, "app_open" kept; the "Home" view matched "Ho*".
        #expect(try count(fixture, "ingest_events", app: app.appId) == 1)
        #expect(try count(fixture, "ingest_screen_views", app: app.appId) == 0)
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--enabled", "off"]).status == .exited(0))
        let paused = fixture.batch(Array(Self.batch(key: app.key).utf8))
        #expect(jsonObject(paused)["reason"] as? String == "paused")
        #expect(jsonObject(fixture.config(app.key, query))["enabled"] as? Bool == false)
        let refused = try fixture.admin(["ingest-settings", "--app", app.appId, "--flush-events", "0"])
        #expect(refused.status == .exited(2) && refused.stderr.contains("--flush-events"))
    }

    @Test func overTheProjectsDailyQuotaABatchIsNotStoredAndAnotherProjectIsNotCounted() throws {
        let fixture = try IngestFixture.migrated(ingestDailyBatches: 2)
        let app = try fixture.app()
        let sibling = try fixture.app(bundleId: "com.example.Sibling", tenant: app.tenant)
        let other = try fixture.app()
        // A batch not stored for consent spends none of the quota.
        #expect(jsonObject(fixture.batch(Array(Self.batch(key: app.key, cs: "dggg").utf8)))["reason"] as? String
                == "consent")
        #expect(jsonObject(fixture.batch(Array(Self.batch(key: app.key).utf8)))["stored"] as? Bool == true)
        let siblingBody = Self.batch(key: sibling.key, bid: "com.example.Sibling")
        #expect(jsonObject(fixture.batch(Array(siblingBody.utf8)))["stored"] as? Bool == true)
        let over = fixture.batch(Array(Self.batch(key: app.key).utf8))
        #expect(over.status == 200)
        #expect(jsonObject(over)["stored"] as? Bool == false && jsonObject(over)["reason"] as? String == "quota")
        #expect(jsonObject(fixture.batch(Array(Self.batch(key: other.key).utf8)))["stored"] as? Bool == true)
    }

    @Test func deviceTimesAreCorrectedByServerNowMinusAtAndOldBatchesRefused() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        // The device clock is 3 hours behind: its times land near the server's now.
        #expect(fixture.batch(Array(Self.batch(key: app.key, skew: -3 * 3600).utf8)).status == 200)
        let late = try fixture.apps.tenants.ownerConnection().query("""
            SELECT max(abs(extract(epoch FROM occurred_at - now()))) AS off FROM ingest_events WHERE app_id = $1::uuid
            """, [.text(app.appId)]).rows[0].string("off")
        #expect((Double(late) ?? 1e9) < 120)
        let old = fixture.batch(Array(Self.batch(key: app.key, eventAge: 8 * 86400).utf8))
        #expect(old.status == 400)
        #expect(bodyText(old) == #"{"ok":false,"code":"invalid","detail":"at: the batch is older than 7 days"}"#)
        let future = Self.batch(key: app.key).replacingOccurrences(of: #""t0":"#, with: #""t0":9"#)
        #expect(bodyText(fixture.batch(Array(future.utf8)))
                == #"{"ok":false,"code":"invalid","detail":"at: a time of the batch is more than a day after at"}"#)
    }

    @Test func anotherAppsKeyAnotherOrgsAppAndAnUnknownKeyAreRefused() throws {
        let fixture = try IngestFixture.migrated()
        let mine = try fixture.app()
        let sibling = try fixture.app(bundleId: "com.example.Sibling", tenant: mine.tenant)
        let foreign = try fixture.app(bundleId: "com.example.Foreign")
        for other in [sibling, foreign] {
            let response = fixture.batch(Array(Self.batch(key: other.key).utf8))
            #expect(response.status == 403)
            #expect(bodyText(response) == #"{"ok":false,"code":"app_mismatch"}"#)
        }
        let android = fixture.batch(Array(Self.batch(key: mine.key, plat: "android").utf8))
        #expect(bodyText(android) == #"{"ok":false,"code":"app_mismatch"}"#)
        let unknown = fixture.batch(Array(Self.batch(key: "pk_3x_" + String(repeating: "Q", count: 32)).utf8))
        #expect(unknown.status == 403 && bodyText(unknown) == #"{"ok":false,"code":"key"}"#)
        for app in [mine, sibling, foreign] { #expect(try count(fixture, "ingest_events", app: app.appId) == 0) }
    }

    @Test func malformedBatchesAre400NamingThePartAndABombIs413() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let good = Self.batch(key: app.key)
        let cases: [(String, String)] = [
            ("{}", "v is required"),
            (#"{"v":2}"#, "v must be 1"),
            ("[1]", "body is not a JSON object"),
            (good.replacingOccurrences(of: #""cm":"opt_in","#, with: ""), "cm is required"),
            (good.replacingOccurrences(of: #""cs":"gggg""#, with: #""cs":"gg""#),
             "cs must be 4 characters of g, d, p, x"),
            (good.replacingOccurrences(of: #""n":2,"#, with: #""n":-2,"#), "ev[1].n must be a whole number ≥ 0"),
            (good.replacingOccurrences(of: #""sid":"S-1","#, with: ""), "sid is required"),
            (good.replacingOccurrences(of: #""dp":"0a"#, with: #""dp":"ZZ"#), "dp must be 64 hex digits"),
            (Self.batch(key: app.key, extra: #","id":{"em":"alice@example.com"}"#),
             "id.em must be a SHA-256 in hex"),
            (good.replacingOccurrences(of: #""cold":true"#, with: #""cold":"a\u0000b""#),
             "ev[0].p must not hold a NUL character"),
        ]
        for (body, detail) in cases {
            let response = fixture.batch(Array(body.utf8))
            #expect(response.status == 400, "\(detail)")
            #expect(bodyText(response) == #"{"ok":false,"code":"invalid","detail":"\#(detail)"}"#)
        }
        let screens = (0..<21).map { #"{"id":"v\#($0)","seq":1,"t0":1}"# }.joined(separator: ",")
        let tooMany = good.replacingOccurrences(of: #""scr":["#, with: #""scr":[\#(screens),"#)
        #expect(bodyText(fixture.batch(Array(tooMany.utf8)))
                == #"{"ok":false,"code":"invalid","detail":"scr must hold 1 to 20 screen views"}"#)
        let bomb = try gzip(good.replacingOccurrences(of: #""cold":true"#,
                                                      with: #""pad":""# + String(repeating: " ", count: 70_000) + "\""))
        #expect(bomb.count < 65536)
        let refused = fixture.batch(bomb, gzip: true)
        #expect(refused.status == 413 && bodyText(refused) == #"{"ok":false,"code":"too_large"}"#)
        let notGzip = fixture.batch(Array(good.utf8), gzip: true)
        #expect(bodyText(notGzip) == #"{"ok":false,"code":"invalid","detail":"body is not valid gzip"}"#)
        #expect(try count(fixture, "ingest_events", app: app.appId) == 0)
    }
}
