import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /v1/m/config/{pk}` (issue 20): the AppConfig of the publishable key's app, compact errors, `rev`.
@Suite struct IngestConfigTests {
    private static let ios = ["plat": "ios", "bid": "com.example.Reader", "sdk": "X3Kit/1.4.0"]

    private func rev(_ response: Response) -> Int? { jsonObject(response)["rev"] as? Int }

    @Test func theConfigIsTheAppConfigShapeWithDefaultsAndCachedPrivatelyForFiveMinutes() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        #expect(PublishableKey.parse(app.key) != nil && app.key.hasPrefix("pk_3x_"))
        let response = fixture.config(app.key, Self.ios)
        #expect(response.status == 200)
        #expect(response.headers["Cache-Control"] == "private, max-age=300")
        #expect(response.headers["Content-Type"] == "application/json")
        let revision = try #require(rev(response))
        #expect(revision > 0)
        // The members in the protocol's order (issue 20's list), not sorted.
        #expect(bodyText(response) == #"{"v":1,"rev":\#(revision),"#
            + #""app":{"id":"\#(app.appId)","plat":"ios","bid":"com.example.Reader"},"enabled":true,"#
            + #""flush":{"intervalMs":15000,"events":50},"session":{"timeoutMs":1800000},"events":{"blocked":[]},"#
            + #""screens":{"exclude":[]},"identify":{"enabled":true},"leads":{"enabled":false},"#
            + #""recording":{"enabled":false,"sampleRate":0,"excludeScreens":[],"maskText":true,"maskImages":true,"#
            + #""unmaskAnchors":[],"maskAnchors":[],"screenshots":false,"maxFps":1,"wifiOnly":true,"health":false},"#
            + #""skan":false,"links":{"hosts":[],"pathPrefix":"/"},"attestation":false}"#)
        let android = try fixture.app(platform: "android", bundleId: "com.example.reader")
        let answered = fixture.config(android.key, ["plat": "android", "bid": "com.example.reader"])
        #expect(answered.status == 200)
        #expect((jsonObject(answered)["app"] as? [String: String])?["plat"] == "android")
    }

    @Test func revGrowsWithEveryChangeOfTheAppAndOfItsProject() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let first = try #require(rev(fixture.config(app.key, Self.ios)))
        let patched = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                        body: #"{"appAppleId":42}"#)
        #expect(patched.status == 200)
        let second = try #require(rev(fixture.config(app.key, Self.ios)))
        #expect(second > first)
        let project = fixture.apps.send(.patch, "/s2s/v1/project", key: app.tenant.key, body: #"{"name":"Renamed"}"#)
        #expect(project.status == 200)
        let third = try #require(rev(fixture.config(app.key, Self.ios)))
        #expect(third > second)
        // Reading changes nothing.
        #expect(rev(fixture.config(app.key, Self.ios)) == third)
    }

    @Test func replayRebuildsKeysRevisionsAndSettingsEqualToTheLiveRows() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        _ = try fixture.app(platform: "android", bundleId: "com.example.other", tenant: app.tenant)
        #expect(try fixture.admin(["ingest-settings", "--app", app.appId, "--leads", "on"]).status == .exited(0))
        #expect(try fixture.admin(["rotate-publishable-key", "--app", app.appId]).status == .exited(0))
        _ = fixture.apps.send(.patch, "/s2s/v1/project", key: app.tenant.key, body: #"{"name":"Moved"}"#)
        let owner = try fixture.apps.tenants.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM app_ingest_configs ORDER BY app_id").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(live.count >= 2)
        try owner.execute("UPDATE app_ingest_configs SET rev = 1, settings = '{}', publishable_key = NULL")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("app_ingest_configs"))
        #expect(try snapshot() == live)
    }

    @Test func anUnknownPathOrAnotherMethodUnderV1MIsCompactButTheStoreURLsAndOtherPathsKeepTheirShape() throws {
        let fixture = try IngestFixture.migrated()
        func send(_ method: HTTPServer.Method, _ path: String) -> Response {
            fixture.api.respond(to: Request(method: method, path: path, query: [:], headers: Headers([]), body: [],
                                            clientIP: "198.51.100.9", remoteAddress: "198.51.100.9"))
        }
        let wrongMethod = send(.get, "/v1/m/batch")
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "POST")
        #expect(bodyText(wrongMethod) == #"{"ok":false,"code":"method_not_allowed"}"#)
        let unknown = send(.post, "/v1/m/nope")
        #expect(unknown.status == 404 && bodyText(unknown) == #"{"ok":false,"code":"not_found"}"#)
        #expect(bodyText(send(.post, "/v1/m/store/apple/")).contains(#""statusCode":404"#))
        #expect(bodyText(send(.get, "/s2s/v1/nope")).contains(#""statusCode":404"#))
    }

    @Test func anUnknownMalformedOrRotatedKeyIs403KeyInTheCompactShape() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let key = #"{"ok":false,"code":"key"}"#
        for wrong in ["pk_3x_" + String(repeating: "A", count: 32), "pk_3x_short", "sk_live_x",
                      String(app.key.dropLast()) + (app.key.hasSuffix("A") ? "B" : "A")] {
            let response = fixture.config(wrong, Self.ios)
            #expect(response.status == 403, "\(wrong)")
            #expect(bodyText(response) == key, "\(wrong)")
        }
        // A store token is not a publishable key.
        #expect(bodyText(fixture.config(app.storeToken, Self.ios)) == key)
        let shown = try fixture.admin(["show", "--app", app.appId]).json()
        #expect(shown["publishableKey"] as? String == app.key)
        let rotated = try fixture.admin(["rotate-publishable-key", "--app", app.appId]).json()
        let newKey = try #require(rotated["publishableKey"] as? String)
        #expect(newKey != app.key && PublishableKey.parse(newKey) != nil)
        #expect(fixture.config(app.key, Self.ios).status == 403)
        #expect(bodyText(fixture.config(app.key, Self.ios)) == key)
        #expect(fixture.config(newKey, Self.ios).status == 200)
        #expect(try fixture.admin(["show", "--app", app.appId]).json()["publishableKey"] as? String == newKey)
    }

    @Test func anotherPlatformOrBundleIdIs403AppMismatchWithoutEchoingTheRegisteredOne() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        for query in [["plat": "android", "bid": "com.example.Reader"], ["plat": "ios", "bid": "com.example.Other"],
                      ["plat": "ios", "bid": "com.example.reader"]] {
            let response = fixture.config(app.key, query)
            #expect(response.status == 403)
            #expect(bodyText(response) == #"{"ok":false,"code":"app_mismatch"}"#)
        }
    }

    @Test func aMissingOrMalformedPlatOrBidIs400InvalidNamingIt() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let cases: [([String: String], String)] = [
            (["bid": "com.example.Reader"], "plat is required"),
            (["plat": "windows", "bid": "com.example.Reader"], "plat must be ios or android"),
            (["plat": "ios"], "bid is required"),
            (["plat": "ios", "bid": String(repeating: "a", count: 256)], "bid is longer than 255 bytes"),
        ]
        for (query, detail) in cases {
            let response = fixture.config(app.key, query)
            #expect(response.status == 400)
            #expect(bodyText(response) == #"{"ok":false,"code":"invalid","detail":"\#(detail)"}"#)
        }
    }

    @Test func anotherAppsKeyOrAnotherOrgsAppsKeyDoesNotOpenThisApp() throws {
        let fixture = try IngestFixture.migrated()
        let mine = try fixture.app()
        let sibling = try fixture.app(bundleId: "com.example.Sibling", tenant: mine.tenant)
        let foreign = try fixture.app(bundleId: "com.example.Foreign")
        #expect(mine.tenant.org != foreign.tenant.org)
        for other in [sibling, foreign] {
            let response = fixture.config(other.key, Self.ios)
            #expect(response.status == 403)
            #expect(bodyText(response) == #"{"ok":false,"code":"app_mismatch"}"#)
        }
        // Each key still opens its own app only.
        let own = fixture.config(foreign.key, ["plat": "ios", "bid": "com.example.Foreign"])
        #expect((jsonObject(own)["app"] as? [String: String])?["id"] == foreign.appId)
    }

    @Test func overTheLimitIs429RateLimitedWithRetryAfter() throws {
        let fixture = try IngestFixture.migrated(ingestConfigLimit: TestIdentity.uniqueLimit(count: 2))
        let app = try fixture.app()
        #expect(fixture.config(app.key, Self.ios).status == 200)
        #expect(fixture.config(app.key, Self.ios).status == 200)
        let limited = fixture.config(app.key, Self.ios)
        #expect(limited.status == 429)
        let seconds = try #require(limited.headers["Retry-After"].flatMap(Int.init))
        #expect(seconds > 0)
        #expect(bodyText(limited) == #"{"ok":false,"code":"rate_limited","retryAfter":\#(seconds)}"#)
        // Another client IP has its own budget.
        #expect(fixture.config(app.key, Self.ios, clientIP: "198.51.100.71").status == 200)
    }

    @Test func withoutRedisTheConfigIs503UnavailableNotUnlimited() throws {
        let fixture = try IngestFixture.migrated(redisURL: "redis://127.0.0.1:1")
        let app = try fixture.app()
        let response = fixture.config(app.key, Self.ios)
        #expect(response.status == 503)
        let seconds = try #require(response.headers["Retry-After"].flatMap(Int.init))
        #expect(bodyText(response) == #"{"ok":false,"code":"unavailable","retryAfter":\#(seconds)}"#)
    }

    @Test func aBodyOverTheLimitIs413TooLargeInTheCompactShape() throws {
        let fixture = try IngestFixture.migrated()
        let request = Request(method: .get, path: "/v1/m/config/pk_3x_x", query: [:], headers: Headers([]),
                              body: [1], clientIP: "198.51.100.70", remoteAddress: "198.51.100.70")
        #expect(fixture.api.bodyLimit(for: .get, path: "/v1/m/config/pk_3x_x") == 0)
        let response = fixture.api.payloadTooLarge(request)
        #expect(response.status == 413)
        #expect(bodyText(response) == #"{"ok":false,"code":"too_large"}"#)
        // Other routes keep their own shape.
        let s2s = fixture.api.payloadTooLarge(Request(method: .get, path: "/s2s/v1/project", query: [:],
                                                      headers: Headers([]), body: [1], clientIP: "198.51.100.70",
                                                      remoteAddress: "198.51.100.70"))
        #expect(bodyText(s2s).hasPrefix(#"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE""#))
    }
}
