import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /s2s/v1/apps/{appId}/installs?from=&to=` (issue 20): installs per day and tier, refusals, another org's app.
@Suite struct AppInstallsReadTests {
    private func read(_ fixture: IngestFixture, app: String, key: String, query: [String: String] = [:]) -> Response {
        fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app)/installs", query: query,
            headers: Headers([("Authorization", "Bearer " + key)]), body: [], clientIP: "203.0.113.7",
            remoteAddress: "203.0.113.7"))
    }

    @Test func installsAreCountedPerDayAndTierAndAnotherOrgsAppIs404() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        let sources = [IngestInstallTests.paidReferrer, IngestInstallTests.paidReferrer, "", ""]
        for (index, extra) in sources.enumerated() {
            let body = IngestInstallTests.install(key: app.key, inst: "C-\(index)", cs: index == 3 ? "gdgg" : "gggg",
                                                  sources: extra)
            #expect(fixture.install(Array(body.utf8)).status == 200)
        }
        let response = read(fixture, app: app.appId, key: app.tenant.key)
        #expect(response.status == 200)
        let answer = jsonObject(response)
        #expect(answer["appId"] as? String == app.appId)
        let days = try #require(answer["days"] as? [[String: Any]])
        #expect(days.count == 1)
        let today = String(RFC3339.format(Date().addingTimeInterval(-3600)).prefix(10))
        #expect(days.first?["day"] as? String == today)
        #expect(days.first?["total"] as? Int == 4)
        #expect(days.first?["tiers"] as? [String: Int] == ["referrer": 2, "apple_ads": 0, "link": 0, "identity": 0,
                                                           "organic": 1, "unknown": 1, "pending": 0])
        // A range before the installs has none; a range ending before it starts too.
        let earlier = read(fixture, app: app.appId, key: app.tenant.key,
                           query: ["from": "2020-01-01T00:00:00Z", "to": "2020-02-01T00:00:00Z"])
        #expect(earlier.status == 200 && (jsonObject(earlier)["days"] as? [Any])?.isEmpty == true)
        let backwards = read(fixture, app: app.appId, key: app.tenant.key,
                             query: ["from": "2030-01-01T00:00:00Z", "to": "2020-01-01T00:00:00Z"])
        #expect(backwards.status == 200 && (jsonObject(backwards)["days"] as? [Any])?.isEmpty == true)
        // Another org's key does not see the app.
        let other = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        let foreign = read(fixture, app: app.appId, key: other.tenant.key)
        #expect(foreign.status == 404)
        #expect(!bodyText(foreign).contains(app.appId) && !bodyText(foreign).contains("referrer"))
    }

    @Test func aMalformedRangeOrAppIdIs400NamingIt() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app(platform: "android", bundleId: IngestInstallTests.bid)
        for name in ["from", "to"] {
            let response = read(fixture, app: app.appId, key: app.tenant.key, query: [name: "yesterday"])
            #expect(response.status == 400)
            #expect(bodyText(response).contains("'\(name)'"))
        }
        let malformed = read(fixture, app: "not-an-app", key: app.tenant.key)
        #expect(malformed.status == 400 && bodyText(malformed).contains("VALIDATION_APP_ID_FORMAT"))
        let unauthenticated = fixture.api.respond(to: Request(
            method: .get, path: "/s2s/v1/apps/\(app.appId)/installs", query: [:], headers: Headers([]), body: [],
            clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
        #expect(unauthenticated.status == 401)
    }
}
