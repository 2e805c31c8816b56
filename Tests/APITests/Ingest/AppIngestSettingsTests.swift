import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// The ingest settings over `PATCH /s2s/v1/apps/{appId}` (issue 20): the `ingest` member in the AppConfig shape,
/// field-named refusals, `rev`, another org's app; and the new admin flags.
@Suite struct AppIngestSettingsTests {
    private static let ios = ["plat": "ios", "bid": "com.example.Reader"]

    /// Every setting changed at once, in the wire shape.
    static let everything = #"{"ingest":{"enabled":false,"flush":{"intervalMs":30000,"events":20},"#
        + #""session":{"timeoutMs":600000},"events":{"blocked":["debug_tap"]},"screens":{"exclude":["Settings*"]},"#
        + #""identify":{"enabled":false},"leads":{"enabled":true},"signupIsLead":true,"#
        + #""recording":{"enabled":true,"sampleRate":1,"excludeScreens":["Pay*"],"maskText":false,"#
        + #""maskImages":false,"unmaskAnchors":["title"],"maskAnchors":["card"],"screenshots":true,"maxFps":4,"#
        + #""wifiOnly":false,"health":true},"skan":true,"links":{"hosts":["go.example.com"],"pathPrefix":"/app"},"#
        + #""attestation":true}}"#

    /// The settings of `everything` as the AppConfig and the `ingest` answer write them (keys sorted): the members
    /// before `rev`, and `screens`, `session`.
    static let membersBeforeRev = #""attestation":true,"enabled":false,"events":{"blocked":["debug_tap"]},"#
        + #""flush":{"events":20,"intervalMs":30000},"identify":{"enabled":false},"leads":{"enabled":true},"#
        + #""links":{"hosts":["go.example.com"],"pathPrefix":"/app"},"#
        + #""recording":{"enabled":true,"excludeScreens":["Pay*"],"health":true,"maskAnchors":["card"],"#
        + #""maskImages":false,"maskText":false,"maxFps":4,"sampleRate":1,"screenshots":true,"#
        + #""unmaskAnchors":["title"],"wifiOnly":false}"#
    static let screensAndSession = #""screens":{"exclude":["Settings*"]},"session":{"timeoutMs":600000}"#

    private func rev(_ fixture: IngestFixture, _ key: String) -> Int? {
        jsonObject(fixture.config(key, Self.ios))["rev"] as? Int
    }

    @Test func patchingIngestChangesEverySettingTheConfigServesAndRevGrows() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let before = try #require(rev(fixture, app.key))
        let shown = jsonObject(fixture.apps.send(.get, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key))
        let defaults = try #require(shown["ingest"] as? [String: Any])
        #expect(defaults["rev"] as? Int == before && defaults["signupIsLead"] as? Bool == false)

        let patched = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                        body: Self.everything)
        #expect(patched.status == 200)
        let after = try #require(rev(fixture, app.key))
        #expect(after > before)
        let text = bodyText(patched)
        #expect(text.contains(#""ingest":{"# + Self.membersBeforeRev + #","rev":\#(after),"#
            + Self.screensAndSession + #","signupIsLead":true,"skan":true}"#), "\(text)")
        let config = bodyText(fixture.config(app.key, Self.ios))
        #expect(config == #"{"v":1,"rev":\#(after),"#
            + #""app":{"id":"\#(app.appId)","plat":"ios","bid":"com.example.Reader"},"enabled":false,"#
            + #""flush":{"intervalMs":30000,"events":20},"session":{"timeoutMs":600000},"#
            + #""events":{"blocked":["debug_tap"]},"screens":{"exclude":["Settings*"]},"identify":{"enabled":false},"#
            + #""leads":{"enabled":true},"recording":{"enabled":true,"sampleRate":1,"excludeScreens":["Pay*"],"#
            + #""maskText":false,"maskImages":false,"unmaskAnchors":["title"],"maskAnchors":["card"],"#
            + #""screenshots":true,"maxFps":4,"wifiOnly":false,"health":true},"skan":true,"#
            + #""links":{"hosts":["go.example.com"],"pathPrefix":"/app"},"attestation":true}"#, "\(config)")
        // The same read over GET, and an absent setting is kept by the next change.
        let again = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                      body: #"{"ingest":{"skan":false}}"#)
        let ingest = try #require(jsonObject(again)["ingest"] as? [String: Any])
        #expect(ingest["skan"] as? Bool == false && ingest["attestation"] as? Bool == true)
        #expect((ingest["rev"] as? Int ?? 0) > after)
        #expect(bodyText(fixture.apps.send(.get, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key))
            == bodyText(again))
    }

    @Test func aFractionalSampleRateIsStoredInMillionthsAndServedAsANumber() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let patched = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                        body: #"{"ingest":{"recording":{"sampleRate":0.25}}}"#)
        #expect(patched.status == 200, "\(bodyText(patched))")
        let served = bodyText(fixture.config(app.key, Self.ios))
        #expect(served.contains(#""sampleRate":0.25,"#), "\(served)")
        // The event holds a whole number (the log's canonical JSON has no fractions); 0 and 1 keep their old form.
        let stored = try fixture.apps.tenants.ownerConnection().query("""
            SELECT count(*) AS n FROM events WHERE event_type = 'AppIngestSettingsChanged'
                AND data::text LIKE '%"sampleRatePerMillion": 250000%' AND data::text NOT LIKE '%0.25%'
            """).rows.first?["n"]
        #expect(stored == "1")
        // The CLI takes the same rule and precision.
        let cli = try fixture.admin(["ingest-settings", "--app", app.appId, "--recording-sample-rate", "0.125"])
        #expect(cli.status == .exited(0), "\(cli.stderr)")
        #expect(bodyText(fixture.config(app.key, Self.ios)).contains(#""sampleRate":0.125,"#))
    }

    @Test func eachBadSettingIs400NamingItsPathAndChangesNothing() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let before = try #require(rev(fixture, app.key))
        let cases: [(String, String)] = [
            (#"{"ingest":{"flush":{"intervalMs":5}}}"#, "field 'ingest.flush.intervalMs' must be 1000–3600000"),
            (#"{"ingest":{"flush":{"events":"20"}}}"#, "field 'ingest.flush.events' must be an integer"),
            (#"{"ingest":{"recording":{"sampleRate":1.5}}}"#,
             "field 'ingest.recording.sampleRate' must be a number from 0 to 1"),
            (#"{"ingest":{"recording":{"maxFps":31}}}"#, "field 'ingest.recording.maxFps' must be 1–30"),
            (#"{"ingest":{"skan":"yes"}}"#, "field 'ingest.skan' must be a boolean"),
            (#"{"ingest":{"enabled":null}}"#, "field 'ingest.enabled' must be a boolean"),
            (#"{"ingest":{"events":{"blocked":["a,b"]}}}"#, "field 'ingest.events.blocked' must be up to 100 names "
                + "of 1–128 characters without control characters or commas"),
            (#"{"ingest":{"links":{"hosts":["Go.Example.com"]}}}"#, "field 'ingest.links.hosts' must be up to 100 "
                + "lowercase host names"),
            (#"{"ingest":{"links":{"pathPrefix":"app"}}}"#, "field 'ingest.links.pathPrefix' must be / followed by "
                + "up to 255 letters, digits, or . _ ~ / -"),
            (#"{"ingest":{"paused":true}}"#, "field 'paused' is not an ingest setting"),
            (#"{"ingest":{"flush":{"every":1}}}"#, "field 'every' is not a member of ingest.flush"),
            // A bad setting refuses the whole body: the bundle id beside it is not changed either.
            (#"{"bundleId":"com.example.Other","ingest":{"session":{"timeoutMs":1}}}"#,
             "field 'ingest.session.timeoutMs' must be 60000–86400000"),
        ]
        for (body, message) in cases {
            let response = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key, body: body)
            #expect(response.status == 400, "\(body)")
            #expect(jsonObject(response)["message"] as? String == message, "\(body): \(bodyText(response))")
            #expect(jsonObject(response)["code"] as? String == "VALIDATION_FAILED", "\(body)")
        }
        #expect(rev(fixture, app.key) == before)
        let shown = jsonObject(fixture.apps.send(.get, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key))
        #expect(shown["bundleId"] as? String == "com.example.Reader")
    }

    @Test func anotherOrgsOrAnUnknownAppIs404AndItsSettingsStayAsTheyWere() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let stranger = try fixture.apps.tenants.tenant()
        let before = try #require(rev(fixture, app.key))
        for (id, key) in [(app.appId, stranger.key), (UUID().uuidString.lowercased(), app.tenant.key)] {
            let response = fixture.apps.send(.patch, "/s2s/v1/apps/\(id)", key: key,
                                             body: #"{"ingest":{"enabled":false}}"#)
            #expect(response.status == 404)
        }
        #expect(rev(fixture, app.key) == before)
        #expect(jsonObject(fixture.config(app.key, Self.ios))["enabled"] as? Bool == true)
    }

    @Test func pausingOverPatchAnswersBatchesPausedAndLeadsOnLetsLeadsIn() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let paused = fixture.apps.send(.patch, "/s2s/v1/apps/\(app.appId)", key: app.tenant.key,
                                       body: #"{"ingest":{"enabled":false,"leads":{"enabled":true}}}"#)
        #expect(paused.status == 200)
        let stored = try #require(fixture.apps.tenants.ownerConnection().query("""
            SELECT settings::text AS settings FROM app_ingest_configs WHERE app_id = $1::uuid
            """, [.text(app.appId)]).rows.first)
        let settings = try JSONDecoder().decode(IngestSettings.self, from: Data(try stored.string("settings").utf8))
        #expect(!settings.enabled && settings.leadsEnabled)
    }

    @Test func theAdminFlagsSetTheNewSettingsAndRefuseABadOneNamingItsFlag() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let outcome = try fixture.admin(["ingest-settings", "--app", app.appId, "--skan", "on", "--attestation", "on",
                                         "--link-hosts", "go.example.com,links.example.com", "--link-path-prefix",
                                         "/open", "--recording-max-fps", "5", "--recording-wifi-only", "off",
                                         "--recording-mask-anchors", "card,iban"])
        #expect(outcome.status == .exited(0))
        let config = jsonObject(fixture.config(app.key, Self.ios))
        #expect(config["skan"] as? Bool == true && config["attestation"] as? Bool == true)
        let links = try #require(config["links"] as? [String: Any])
        #expect(links["hosts"] as? [String] == ["go.example.com", "links.example.com"])
        #expect(links["pathPrefix"] as? String == "/open")
        let recording = try #require(config["recording"] as? [String: Any])
        #expect(recording["maxFps"] as? Int == 5 && recording["wifiOnly"] as? Bool == false)
        #expect(recording["maskAnchors"] as? [String] == ["card", "iban"])
        let refused = try fixture.admin(["ingest-settings", "--app", app.appId, "--recording-max-fps", "0"])
        #expect(refused.status == .exited(2))
        #expect(refused.stderr.contains("field '--recording-max-fps' must be 1–30"), "\(refused.stderr)")
    }

    @Test func appUpdateTakesTheIngestSettingsAloneOrWithTheAppsFieldsAndAnswersTheApp() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let before = try #require(rev(fixture, app.key))
        let alone = try fixture.admin(["update", "--app", app.appId, "--enabled", "off", "--session-timeout-ms",
                                       "600000"])
        #expect(alone.status == .exited(0), "\(alone.stderr)")
        let answered = try alone.json()
        #expect(answered["appId"] as? String == app.appId)
        #expect((answered["ingest"] as? [String: Any])?["enabled"] as? Bool == false)
        let config = jsonObject(fixture.config(app.key, Self.ios))
        #expect(config["enabled"] as? Bool == false)
        #expect((config["session"] as? [String: Any])?["timeoutMs"] as? Int == 600_000)
        #expect(try #require(rev(fixture, app.key)) > before)

        let both = try fixture.admin(["update", "--app", app.appId, "--app-apple-id", "4242", "--leads", "on"])
        #expect(both.status == .exited(0), "\(both.stderr)")
        #expect(try both.json()["appAppleId"] as? Int == 4242)
        #expect((jsonObject(fixture.config(app.key, Self.ios))["leads"] as? [String: Any])?["enabled"] as? Bool == true)

        let refused = try fixture.admin(["update", "--app", app.appId, "--enabled", "maybe"])
        #expect(refused.status == .exited(2) && refused.stderr.contains("'--enabled'"), "\(refused.stderr)")
        #expect(jsonObject(fixture.config(app.key, Self.ios))["enabled"] as? Bool == false)
    }
}
