import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport

/// `handoff admin surface …` through the built binary (issue 15), and `handoff replay` of the surfaces table.
@Suite struct SurfaceAdminTests {
    private func admin(_ fixture: SurfaceFixture, _ arguments: [String]) throws -> AdminOutcome {
        try fixture.apps.tenants.admin(["surface"] + arguments, environment: AppFixture.masterKeyEnvironment.merging(
            ["PUBLIC_BASE_URL": SurfaceFixture.publicBaseURL]) { $1 })
    }

    /// Whether `text` is a forwarding secret: `fwd_` and 43 base64url characters.
    static func isSecret(_ text: String) -> Bool {
        text.hasPrefix("fwd_") && text.utf8.count == 47 && text.dropFirst(4).allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
        }
    }

    @Test func createShowsTheSecretOnceShowNeverAndRotateGivesANewOneWithItsGrace() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let created = try admin(fixture, ["create", "--app", app.id])
        let json = try created.json()
        let surface = try #require(json["surfaceId"] as? String)
        let secret = try #require(json["forwardingSecret"] as? String)
        #expect(Self.isSecret(secret))
        #expect(created.stdout == #"{"forwardingSecret":"\#(secret)","#
            + #""forwardingUrl":"https://handoff.example.com/v1/app-store/assn/\#(surface)","#
            + #""surfaceId":"\#(surface)"}"# + "\n")

        let shown = try admin(fixture, ["show", "--surface", surface])
        let shownJSON = try shown.json()
        #expect(!shown.stdout.contains(secret) && shownJSON["forwardingSecret"] == nil)
        #expect(shownJSON["appId"] as? String == app.id && shownJSON["projectId"] as? String == fixture.tenant.project)
        #expect(shownJSON["forwardingUrl"] as? String == "https://handoff.example.com/v1/app-store/assn/\(surface)")
        #expect(shownJSON["secretRotatedAt"] is NSNull && shownJSON["previousSecretValidUntil"] is NSNull)
        #expect((shownJSON["createdAt"] as? String).flatMap(RFC3339.parse) != nil)

        let before = Date()
        let rotated = try admin(fixture, ["rotate-secret", "--surface", surface, "--grace-hours", "2"]).json()
        let fresh = try #require(rotated["forwardingSecret"] as? String)
        #expect(fresh != secret && Self.isSecret(fresh))
        #expect(rotated["surfaceId"] as? String == surface)
        let until = try #require((rotated["previousSecretValidUntil"] as? String).flatMap(RFC3339.parse))
        #expect(until >= before.addingTimeInterval(2 * 3600 - 1) && until <= Date().addingTimeInterval(2 * 3600))
        let defaulted = try admin(fixture, ["rotate-secret", "--surface", surface]).json()
        let standard = try #require((defaulted["previousSecretValidUntil"] as? String).flatMap(RFC3339.parse))
        #expect(abs(standard.timeIntervalSinceNow - 24 * 3600) < 120)
        let after = try admin(fixture, ["show", "--surface", surface]).json()
        #expect(after["secretRotatedAt"] is String && after["previousSecretValidUntil"] as? String
            == defaulted["previousSecretValidUntil"] as? String)

        // The secrets are kept only sealed: neither the table nor the log holds their text.
        let owner = try fixture.apps.tenants.ownerConnection()
        let rows = try owner.query("SELECT sealed_secret, previous_sealed_secret FROM surfaces").rows
        #expect(rows.count == 1 && rows[0]["sealed_secret"]?.hasPrefix("pd1.") == true)
        let log = try owner.query("SELECT string_agg(data::text, '') AS text FROM events").rows.first?["text"] ?? ""
        for text in [secret, fresh, try #require(defaulted["forwardingSecret"] as? String)] {
            #expect(!log.contains(text))
        }
    }

    @Test func refusalsNameTheFlagAndAnAndroidAppHasNoSurface() throws {
        let fixture = try SurfaceFixture.migrated()
        let android = try fixture.store.app(#"{"platform":"android","bundleId":"com.example.app"}"#)
        let refused = try admin(fixture, ["create", "--app", android.id])
        #expect(refused.status == .exited(1))
        #expect(refused.stderr.contains("the app is an android app: surfaces take App Store notifications, so only "
                                        + "an ios app has them"))
        let cases: [([String], Int32, String)] = [
            (["create", "--app", UUID().uuidString], 1, "no app has this id"),
            (["create", "--app", "app-1"], 2, "field '--app' must be a UUID in canonical text form"),
            (["create"], 2, "--app is required"),
            (["show", "--surface", UUID().uuidString], 1, "no surface has this id"),
            (["rotate-secret", "--surface", UUID().uuidString], 1, "no surface has this id"),
            (["rotate-secret", "--surface", "s"], 2, "field '--surface' must be a UUID in canonical text form"),
            (["rotate-secret", "--surface", UUID().uuidString, "--grace-hours", "721"], 2,
             "field '--grace-hours' must be a whole number of hours from 0 to 720"),
            (["rotate-secret", "--surface", UUID().uuidString, "--grace-hours", "-1"], 2, "--grace-hours"),
            (["delete", "--surface", UUID().uuidString], 2, "unknown subcommand \"surface delete\""),
        ]
        for (arguments, status, message) in cases {
            let outcome = try admin(fixture, arguments)
            #expect(outcome.status == .exited(status), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        #expect(try fixture.store.events("SurfaceCreated").isEmpty)
        let usage = try admin(fixture, ["--help"])
        #expect(usage.status == .exited(0) && usage.stdout.contains("handoff admin surface rotate-secret"))
    }

    @Test func theEventsFeedShowsSurfaceSecretsRedacted() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        _ = try fixture.surfaces.rotateSecret.run(try SurfaceID.parse(surface.id).get(), graceHours: 1, now: Date(),
                                                  metadata: EventMetadata(actor: .admin("test")))
        let feed = jsonObject(fixture.apps.send(.get, "/s2s/v1/events", key: fixture.tenant.key))
        let events = (feed["events"] as? [[String: Any]] ?? []).filter {
            ["SurfaceCreated", "SurfaceSecretRotated"].contains($0["event_type"] as? String ?? "")
        }
        #expect(events.count == 2)
        for event in events {
            #expect((event["data"] as? [String: Any])?["secret"] as? [String: Bool] == ["redacted": true])
        }
        #expect(!bodyText(fixture.apps.send(.get, "/s2s/v1/events", key: fixture.tenant.key)).contains(surface.secret))
    }

    @Test func replayRebuildsTheSurfacesTableEqualToTheLiveOne() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let first = try fixture.surface(app: app.id)
        _ = try fixture.surface(app: app.id)
        let id = try SurfaceID.parse(first.id).get()
        let metadata = EventMetadata(actor: .admin("test"))
        _ = try fixture.surfaces.rotateSecret.run(id, graceHours: 5, now: Date(), metadata: metadata)
        _ = try fixture.surfaces.rotateSecret.run(id, graceHours: 0, now: Date(), metadata: metadata)
        let owner = try fixture.apps.tenants.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM surfaces ORDER BY surface_id").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(live.count == 2)
        try owner.execute("DELETE FROM surfaces")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("surfaces"))
        #expect(try snapshot() == live)
        // The rebuilt rows open as before: the rotated surface's current secret verifies.
        let intake = try #require(try fixture.surfaces.lookup.intake(id))
        #expect(intake.secrets.previous != nil && intake.secrets.verifying(at: Date()).count == 1)
    }
}
