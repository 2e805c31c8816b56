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

/// `POST /v1/m/lead` and `GET /s2s/v1/apps/{appId}/leads` (issue 20): 202, the limits, double submits,
/// `lead_disabled`, sealed contact data, the lead as an event, and the project's read.
@Suite struct IngestLeadTests {
    /// A lead form as the SDK sends it.
    static func lead(key: String, plat: String = "ios", bid: String = "com.example.Reader", inst: String = "I-4F2A",
                     form: String = "contact", email: String = "ada@example.com", firstName: String = "Ada",
                     message: String = "Call me\nafter 5", eventId: String = "E-1", extra: String = "") -> String {
        #"{"v":1,"k":"\#(key)","app":{"plat":"\#(plat)","bid":"\#(bid)"},"inst":"\#(inst)","sid":"S-1","#
            + #""form":"\#(form)","email":"\#(email)","firstName":"\#(firstName)","#
            + #""message":"\#(message.replacingOccurrences(of: "\n", with: "\\n"))","consent":{"marketing":true},"#
            + #""fillMs":5400,"eventId":"\#(eventId)"\#(extra)}"#
    }

    private func send(_ fixture: IngestFixture, _ body: String, clientIP: String = "198.51.100.80") -> Response {
        send(fixture, Array(body.utf8), clientIP: clientIP)
    }

    private func send(_ fixture: IngestFixture, _ body: [UInt8], gzip: Bool = false,
                      clientIP: String = "198.51.100.80") -> Response {
        var headers: [(String, String)] = [("Content-Type", "application/json"),
                                           ("User-Agent", "X3Kit/1.4.2 (iOS 17.5.1)")]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return fixture.api.respond(to: Request(method: .post, path: "/v1/m/lead", query: [:],
                                               headers: Headers(headers), body: body, clientIP: clientIP,
                                               remoteAddress: clientIP))
    }

    private func leadsOn(_ fixture: IngestFixture) throws -> IngestFixture.App {
        let app = try fixture.app()
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--leads", "on"]).status == .exited(0))
        return app
    }

    private func count(_ fixture: IngestFixture, app: String) throws -> Int {
        Int(try fixture.apps.tenants.ownerConnection().query(
            "SELECT count(*) AS n FROM app_leads WHERE app_id = $1::uuid", [.text(app)]).rows[0].string("n")) ?? -1
    }

    private func leads(_ fixture: IngestFixture, _ app: IngestFixture.App, key: String? = nil,
                       query: [String: String] = [:]) -> Response {
        var request = s2sRequest(.get, "/s2s/v1/apps/\(app.appId)/leads", key: key ?? app.tenant.key)
        request.query = query
        return fixture.api.respond(to: request)
    }

    private static let accepted = #"{"ok":true}"#

    private func gzip(_ text: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(text.utf8).base64EncodedString()])
        return Array(try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))))
    }

    @Test func aLeadIsAnEventWithItsContactSealedAndTheProjectReadsItOpened() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        // Leads are taken in every consent state: the body carries none.
        let response = send(fixture, Self.lead(key: app.key))
        #expect(response.status == 202)
        #expect(bodyText(response) == Self.accepted)
        #expect(response.headers["Content-Type"] == "application/json")
        let owner = try fixture.apps.tenants.ownerConnection()
        let events = try owner.query("""
            SELECT data::text AS data FROM events WHERE org_id = $1::uuid AND event_type = 'AppLeadReceived'
            """, [.text(app.tenant.org)]).rows
        #expect(events.count == 1)
        let data = try events[0].string("data")
        for clear in ["ada@example.com", "Ada", "Call me", "I-4F2A"] { #expect(!data.contains(clear), "\(clear)") }
        #expect(data.contains(#""form": "contact""#) && data.contains(#""email": "pd1."#))
        let row = try owner.query("SELECT email, first_name, message, install_hash FROM app_leads").rows
        #expect(row.count == 1)
        #expect(try row[0].string("email").hasPrefix("pd1.") && row[0].string("message").hasPrefix("pd1."))
        let read = leads(fixture, app)
        #expect(read.status == 200)
        let page = jsonObject(read)
        let shown = try #require((page["leads"] as? [[String: Any]])?.first)
        #expect(shown["email"] as? String == "ada@example.com")
        #expect(shown["firstName"] as? String == "Ada")
        #expect(shown["message"] as? String == "Call me\nafter 5")
        #expect(shown["form"] as? String == "contact" && shown["eventId"] as? String == "E-1")
        #expect(shown["sessionId"] as? String == "S-1" && shown["fillMs"] as? Int == 5400)
        #expect(shown["marketingConsent"] as? Bool == true)
        #expect((shown["leadId"] as? String).flatMap(UUID.init(uuidString:)) != nil)
        #expect(page["nextAfter"] is NSNull)
        // The org's event feed opens the contact with the install's key too.
        let feed = bodyText(fixture.apps.send(.get, "/s2s/v1/events", key: app.tenant.key))
        #expect(feed.contains("AppLeadReceived") && feed.contains("ada@example.com"))
    }

    @Test func aDoubleSubmitWithinTwoMinutesRecordsOneLead() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        #expect(send(fixture, Self.lead(key: app.key), clientIP: "198.51.100.81").status == 202)
        // The same eventId from elsewhere, with other contact data: a repeat.
        #expect(send(fixture, Self.lead(key: app.key, inst: "I-2", email: "bob@example.com", eventId: "E-1"),
                     clientIP: "198.51.100.82").status == 202)
        // The same install, form and contact under a new eventId: a repeat.
        let again = send(fixture, Self.lead(key: app.key, eventId: "E-2"), clientIP: "198.51.100.83")
        #expect(again.status == 202 && bodyText(again) == Self.accepted)
        #expect(try count(fixture, app: app.appId) == 1)
        // Another form of the same install is another lead.
        #expect(send(fixture, Self.lead(key: app.key, inst: "I-3", form: "newsletter", eventId: "E-3"),
                     clientIP: "198.51.100.84").status == 202)
        #expect(try count(fixture, app: app.appId) == 2)
        // Past the two minutes the same eventId is a new lead.
        try fixture.apps.tenants.ownerConnection().execute(
            "UPDATE app_leads SET received_at = received_at - interval '121 seconds'")
        #expect(send(fixture, Self.lead(key: app.key, inst: "I-4"), clientIP: "198.51.100.85").status == 202)
        #expect(try count(fixture, app: app.appId) == 3)
    }

    @Test func copiesOfOneSubmitRacingEachOtherRecordOneLead() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let status = send(fixture, Self.lead(key: app.key, inst: "R-\(index)", eventId: "E-race"),
                              clientIP: "198.51.100.\(90 + index)").status
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 202, count: 6))
        #expect(try count(fixture, app: app.appId) == 1)
    }

    @Test func overThreeAMinutePerProjectAndIPOrPerProjectAndInstallIs429() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        for index in 0..<3 {
            #expect(send(fixture, Self.lead(key: app.key, inst: "IP-\(index)", eventId: "IP-\(index)"),
                         clientIP: "198.51.100.100").status == 202)
        }
        let limited = send(fixture, Self.lead(key: app.key, inst: "IP-9", eventId: "IP-9"), clientIP: "198.51.100.100")
        #expect(limited.status == 429)
        let seconds = try #require(limited.headers["Retry-After"].flatMap(Int.init))
        #expect(bodyText(limited) == #"{"ok":false,"code":"rate_limited","retryAfter":\#(seconds)}"#)
        // One install from three addresses, then a fourth.
        for index in 0..<3 {
            #expect(send(fixture, Self.lead(key: app.key, inst: "ONE", email: "u\(index)@example.com",
                                            eventId: "ONE-\(index)"),
                         clientIP: "198.51.100.\(110 + index)").status == 202)
        }
        #expect(send(fixture, Self.lead(key: app.key, inst: "ONE", email: "u9@example.com", eventId: "ONE-9"),
                     clientIP: "198.51.100.119").status == 429)
        #expect(try count(fixture, app: app.appId) == 6)
        // Another project is counted apart, from the same address and install.
        let other = try leadsOn(fixture)
        #expect(send(fixture, Self.lead(key: other.key, inst: "ONE", eventId: "X"),
                     clientIP: "198.51.100.100").status == 202)
    }

    @Test func withLeadsOffTheAnswerIs403LeadDisabledAndNothingIsRecorded() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let response = send(fixture, Self.lead(key: app.key))
        #expect(response.status == 403)
        #expect(bodyText(response) == #"{"ok":false,"code":"lead_disabled"}"#)
        #expect(try count(fixture, app: app.appId) == 0)
    }

    @Test func withoutRedisALeadIs503UnavailableNotUnlimited() throws {
        let fixture = try IngestFixture.migrated(redisURL: "redis://127.0.0.1:1")
        let app = try leadsOn(fixture)
        let response = send(fixture, Self.lead(key: app.key))
        #expect(response.status == 503)
        let seconds = try #require(response.headers["Retry-After"].flatMap(Int.init))
        #expect(bodyText(response) == #"{"ok":false,"code":"unavailable","retryAfter":\#(seconds)}"#)
        #expect(try count(fixture, app: app.appId) == 0)
    }

    @Test func anotherAppsKeyAnotherOrgsAppAndAnUnknownKeyAreRefused() throws {
        let fixture = try IngestFixture.migrated()
        let mine = try leadsOn(fixture)
        let foreign = try fixture.app(bundleId: "com.example.Foreign")
        #expect(try fixture.admin(["ingest-settings", "--app", foreign.appId, "--leads", "on"]).status == .exited(0))
        // Another org's key naming my app's bundle id.
        let response = send(fixture, Self.lead(key: foreign.key))
        #expect(response.status == 403 && bodyText(response) == #"{"ok":false,"code":"app_mismatch"}"#)
        let android = send(fixture, Self.lead(key: mine.key, plat: "android"))
        #expect(bodyText(android) == #"{"ok":false,"code":"app_mismatch"}"#)
        let unknown = send(fixture, Self.lead(key: "pk_3x_" + String(repeating: "Q", count: 32)))
        #expect(unknown.status == 403 && bodyText(unknown) == #"{"ok":false,"code":"key"}"#)
        for app in [mine, foreign] { #expect(try count(fixture, app: app.appId) == 0) }
    }

    @Test func malformedLeadsAre400NamingThePartGzipIsTakenAndTooLargeIs413() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        let good = Self.lead(key: app.key)
        let cases: [(String, String)] = [
            ("[1]", "body is not a JSON object"),
            (#"{"v":2}"#, "v must be 1"),
            (good.replacingOccurrences(of: #""email":"ada@example.com","#, with: ""), "email is required"),
            (Self.lead(key: app.key, email: "not-an-address"), "email must be an e-mail address"),
            (good.replacingOccurrences(of: #""form":"contact","#, with: ""), "form is required"),
            (good.replacingOccurrences(of: #""inst":"I-4F2A","#, with: ""), "inst is required"),
            (good.replacingOccurrences(of: #""app":{"plat":"ios","#, with: #""app":{"#), "app.plat is required"),
            (Self.lead(key: app.key, message: String(repeating: "m", count: 2001)),
             "message must be 1 to 2000 bytes of text"),
            (good.replacingOccurrences(of: #"{"marketing":true}"#, with: #"{"marketing":1}"#),
             "consent.marketing must be true or false"),
            (good.replacingOccurrences(of: #""fillMs":5400"#, with: #""fillMs":-1"#),
             "fillMs must be a whole number ≥ 0"),
            (Self.lead(key: app.key, firstName: "A\\u0007"), "firstName must be 1 to 100 bytes of text"),
        ]
        for (index, (body, detail)) in cases.enumerated() {
            let response = send(fixture, body, clientIP: "198.51.100.\(120 + index)")
            #expect(response.status == 400, "\(detail)")
            #expect(bodyText(response) == #"{"ok":false,"code":"invalid","detail":"\#(detail)"}"#)
        }
        #expect(try count(fixture, app: app.appId) == 0)
        let gzipped = try gzip(good)
        #expect(send(fixture, gzipped, gzip: true, clientIP: "198.51.100.140").status == 202)
        #expect(try count(fixture, app: app.appId) == 1)
        let pad = #""pad":""# + String(repeating: " ", count: 9000) + #"","fillMs""#
        let padded = good.replacingOccurrences(of: #""fillMs""#, with: pad)
        let bomb = try gzip(padded)
        #expect(bomb.count < 8192)
        let refused = send(fixture, bomb, gzip: true, clientIP: "198.51.100.141")
        #expect(refused.status == 413 && bodyText(refused) == #"{"ok":false,"code":"too_large"}"#)
    }

    @Test func theLeadsReadPagesNewestFirstAndIs404ForAnotherProjectsOrOrgsApp() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        for index in 0..<3 {
            let body = Self.lead(key: app.key, inst: "P-\(index)", form: "f\(index)", eventId: "P-\(index)")
            #expect(send(fixture, body, clientIP: "198.51.100.\(150 + index)").status == 202)
        }
        let first = jsonObject(leads(fixture, app, query: ["limit": "2"]))
        let forms = (first["leads"] as? [[String: Any]])?.compactMap { $0["form"] as? String }
        #expect(forms == ["f2", "f1"])
        let next = try #require(first["nextAfter"] as? Int)
        let second = jsonObject(leads(fixture, app, query: ["limit": "2", "after": "\(next)"]))
        #expect((second["leads"] as? [[String: Any]])?.compactMap { $0["form"] as? String } == ["f0"])
        #expect(second["nextAfter"] is NSNull)
        let bad = leads(fixture, app, query: ["limit": "0"])
        #expect(bad.status == 400 && bodyText(bad).contains("limit"))
        // Another org's key, and another project of the same org.
        let stranger = try fixture.apps.tenants.tenant()
        let foreign = leads(fixture, app, key: stranger.key)
        #expect(foreign.status == 404)
        #expect(!bodyText(foreign).contains("ada@example.com"))
        let sibling = try fixture.apps.tenants.admin(["project", "create", "--org", app.tenant.org, "--name", "Two"])
        let siblingKey = try #require(try sibling.json()["secretKey"] as? String)
        #expect(leads(fixture, app, key: siblingKey).status == 404)
    }

    @Test func replayRebuildsAppLeadsEqualToTheLiveRows() throws {
        let fixture = try IngestFixture.migrated()
        let app = try leadsOn(fixture)
        #expect(send(fixture, Self.lead(key: app.key)).status == 202)
        #expect(send(fixture, Self.lead(key: app.key, inst: "I-2", form: "other", eventId: "E-2"),
                     clientIP: "198.51.100.160").status == 202)
        let owner = try fixture.apps.tenants.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM app_leads ORDER BY org_seq").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(live.count == 2)
        try owner.execute("DELETE FROM app_leads")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("app_leads"))
        #expect(try snapshot() == live)
    }
}
