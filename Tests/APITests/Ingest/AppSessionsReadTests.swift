import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /s2s/v1/apps/{appId}/sessions?from=&to=` (issue 20): sessions, installs, screen views and events per UTC day,
/// refusals, another org's app.
@Suite struct AppSessionsReadTests {
    private func read(_ fixture: IngestFixture, app: String, key: String, query: [String: String] = [:]) -> Response {
        fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app)/sessions", query: query,
            headers: Headers([("Authorization", "Bearer " + key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    @Test func sessionsScreensAndEventsAreCountedPerDayAndAnotherOrgsAppIs404() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        // Two sessions of one install, one of another; each batch one screen view and two events.
        for (inst, session) in [("I-1", "S-1"), ("I-1", "S-2"), ("I-2", "S-3")] {
            let body = IngestBatchTests.batch(key: app.key).replacingOccurrences(of: "I-4F2A", with: inst)
                .replacingOccurrences(of: "S-1", with: session)
            #expect(jsonObject(fixture.batch(Array(body.utf8)))["stored"] as? Bool == true)
        }
        // Not stored (consent): not counted.
        #expect(fixture.batch(Array(IngestBatchTests.batch(key: app.key, cs: "dggg").utf8)).status == 200)
        let response = read(fixture, app: app.appId, key: app.tenant.key)
        #expect(response.status == 200)
        let answer = jsonObject(response)
        #expect(answer["appId"] as? String == app.appId)
        let days = try #require(answer["days"] as? [[String: Any]])
        let today = String(RFC3339.format(Date().addingTimeInterval(-30)).prefix(10))
        #expect(days.count == 1 && days.first?["day"] as? String == today)
        #expect(days.first?["sessions"] as? Int == 3 && days.first?["installs"] as? Int == 2)
        #expect(days.first?["screens"] as? Int == 3 && days.first?["events"] as? Int == 6)
        // A range of other days has none; a backwards range touches no day.
        let earlier = read(fixture, app: app.appId, key: app.tenant.key,
                           query: ["from": "2020-01-01T00:00:00Z", "to": "2020-02-01T00:00:00Z"])
        #expect(earlier.status == 200 && (jsonObject(earlier)["days"] as? [Any])?.isEmpty == true)
        let backwards = read(fixture, app: app.appId, key: app.tenant.key,
                             query: ["from": "2030-01-01T00:00:00Z", "to": "2020-01-01T00:00:00Z"])
        #expect(backwards.status == 200 && (jsonObject(backwards)["days"] as? [Any])?.isEmpty == true)
        let other = try fixture.app()
        let foreign = read(fixture, app: app.appId, key: other.tenant.key)
        #expect(foreign.status == 404 && !bodyText(foreign).contains(app.appId))
    }

    @Test func aMalformedRangeOrAppIdIs400NamingIt() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        for name in ["from", "to"] {
            let response = read(fixture, app: app.appId, key: app.tenant.key, query: [name: "2026-13-01"])
            #expect(response.status == 400 && bodyText(response).contains("'\(name)'"))
        }
        let malformed = read(fixture, app: "not-an-app", key: app.tenant.key)
        #expect(malformed.status == 400 && bodyText(malformed).contains("VALIDATION_APP_ID_FORMAT"))
        let unauthenticated = fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app.appId)/sessions", query: [:], headers: Headers([]), body: [],
            clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
        #expect(unauthenticated.status == 401)
    }
}
