import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /s2s/v1/apps/{appId}/export?day=` (issue 20): a day's raw rows as streamed JSON Lines, refusals, another org's
/// app.
@Suite struct AppExportTests {
    private func export(_ fixture: IngestFixture, app: String, key: String, day: String?) -> Response {
        fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app)/export", query: day.map { ["day": $0] } ?? [:],
            headers: Headers([("Authorization", "Bearer " + key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    private func lines(_ response: Response) throws -> [[String: Any]] {
        let body = try response.stream?.drain() ?? response.body
        return try String(decoding: body, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func aDaysRowsAreStreamedAsJSONLinesSessionsThenScreensThenEvents() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let other = try fixture.app(bundleId: "com.example.Sibling", tenant: app.tenant)
        for session in ["S-2", "S-1"] {
            let body = IngestBatchTests.batch(key: app.key).replacingOccurrences(of: "S-1", with: session)
            #expect(jsonObject(fixture.batch(Array(body.utf8)))["stored"] as? Bool == true)
        }
        let sibling = IngestBatchTests.batch(key: other.key, bid: "com.example.Sibling")
        #expect(jsonObject(fixture.batch(Array(sibling.utf8)))["stored"] as? Bool == true)
        let today = String(RFC3339.format(Date().addingTimeInterval(-30)).prefix(10))
        let response = export(fixture, app: app.appId, key: app.tenant.key, day: today)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/x-ndjson")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.stream != nil)
        let rows = try lines(response)
        #expect(rows.map { $0["type"] as? String } == ["session", "session", "screen", "screen", "event", "event",
                                                       "event", "event"])
        #expect(rows.map { $0["sessionId"] as? String } == ["S-1", "S-2", "S-1", "S-2", "S-1", "S-1", "S-2", "S-2"])
        #expect(rows[0]["consent"] as? String == "gggg" && rows[0]["sdk"] as? String == "X3Kit")
        #expect(rows[2]["path"] as? String == "Home" && rows[2]["taps"] as? Int == 3)
        #expect(rows[5]["name"] as? String == "purchase")
        #expect((rows[5]["props"] as? [String: Any])?["orderId"] as? String == "GPA.1")
        // The install only as its keyed hash; nothing of the sibling app.
        let text = String(decoding: try export(fixture, app: app.appId, key: app.tenant.key, day: today).stream?
            .drain() ?? [], as: UTF8.self)
        #expect(!text.contains("I-4F2A") && (rows[0]["installHash"] as? String)?.count == 64)
        #expect(try lines(export(fixture, app: other.appId, key: app.tenant.key, day: today)).count == 4)
        // Another day, and a day not in the calendar: empty bodies.
        #expect(try lines(export(fixture, app: app.appId, key: app.tenant.key, day: "2020-01-01")).isEmpty)
        for day in ["2026-02-30", "0000-01-01", "2025-02-29"] {
            let missing = export(fixture, app: app.appId, key: app.tenant.key, day: day)
            let missingLines = try lines(missing)
            #expect(missing.status == 200 && missingLines.isEmpty, "\(day)")
        }
        // Another org's key does not see the app.
        let stranger = try fixture.app()
        let foreign = export(fixture, app: app.appId, key: stranger.tenant.key, day: today)
        #expect(foreign.status == 404 && !bodyText(foreign).contains(app.appId))
    }

    @Test func manyRowsArePagedInOrderAndARefusedDayIsNamed() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        // 1 200 events in one session: two pages of events.
        let now = Int(Date().timeIntervalSince1970 * 1000)
        let events = (0..<1200).map { #"{"s":"S-1","n":\#($0),"t":\#(now),"e":"tap"}"# }
        for chunk in stride(from: 0, to: events.count, by: 400) {
            let body = #"{"v":1,"k":"\#(app.key)","app":{"plat":"ios","bid":"com.example.Reader"},"inst":"I-1","#
                + #""sid":"S-1","n":1,"at":\#(now),"cm":"opt_in","cs":"gggg","#
                + #""scr":[{"id":"v-1","seq":1,"t0":\#(now),"path":"Home"}],"#
                + #""ev":[\#(events[chunk..<chunk + 400].joined(separator: ","))]}"#
            let stored = fixture.batch(Array(body.utf8))
            #expect(jsonObject(stored)["stored"] as? Bool == true, "\(bodyText(stored))")
        }
        let today = String(RFC3339.format(Date()).prefix(10))
        let rows = try lines(export(fixture, app: app.appId, key: app.tenant.key, day: today))
        let numbers = rows.filter { $0["type"] as? String == "event" }.compactMap { $0["n"] as? Int }
        #expect(numbers == Array(0..<1200))
        for day in [nil, "yesterday", "2026-13-01", "2026-1-01"] {
            let refused = export(fixture, app: app.appId, key: app.tenant.key, day: day)
            #expect(refused.status == 400 && bodyText(refused).contains("'day'"))
        }
    }
}
