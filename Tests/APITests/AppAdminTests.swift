import Commands
import Domain
import Foundation
import Testing
import TestSupport

/// `handoff admin app …` through the built binary (issue 14).
@Suite struct AppAdminTests {
    private func admin(_ fixture: AppFixture, _ arguments: [String]) throws -> AdminOutcome {
        try fixture.tenants.admin(["app"] + arguments, environment: AppFixture.masterKeyEnvironment.merging(
            ["PUBLIC_BASE_URL": "https://handoff.example.com"]) { $1 })
    }

    @Test func createShowUpdateRotateAndDestinations() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let keyFile = try TestEnvironment.scratchFolder() + "/key-\(UInt64.random(in: 0...UInt64.max)).json"
        try Data(AppFixture.keyFileJSON.utf8).write(to: URL(fileURLWithPath: keyFile))
        let created = try admin(fixture, [
            "create", "--project", tenant.project, "--platform", "android", "--bundle-id", "com.example.app",
            "--forward-url", "https://api.example.com/store", "--revenuecat-secret", "Bearer rc",
            "--google-push-audience", "aud", "--google-push-service-account", "push@p.iam.gserviceaccount.com",
            "--google-service-account-key", keyFile,
        ])
        let json = try created.json()
        let appId = try #require(json["appId"] as? String)
        let token = try #require(json["storeToken"] as? String)
        let base = "https://handoff.example.com/v1/m/store/"
        #expect(created.stdout == #"{"appId":"\#(appId)","storeToken":"\#(token)","storeUrls":{"# +
            #""apple":"\#(base)apple/\#(token)","google":"\#(base)google/\#(token)","# +
            #""revenuecat":"\#(base)revenuecat/\#(token)"}}"# + "\n")

        // Sealed with the same master key as the service: intake opens what the CLI set.
        let app = try #require(try fixture.model.lookup.storeApp(token: token))
        #expect(app.revenuecatSecret == "Bearer rc" && app.googlePushAudience == "aud")
        #expect(try GoogleServiceAccountKey.parse(jsonText: try #require(app.googleServiceAccountKey), field: "k")
            .get().tokenURI == "http://127.0.0.1:9/token")

        let shown = try admin(fixture, ["show", "--app", appId]).json()
        #expect(shown["revenuecatSecret"] as? [String: Bool] == ["set": true])
        #expect(shown["googleServiceAccountKey"] as? [String: Bool] == ["set": true])
        #expect(shown["forwardUrl"] as? String == "https://api.example.com/store")

        let updated = try admin(fixture, ["update", "--app", appId, "--revenuecat-secret", "", "--app-apple-id", "77",
                                          "--forward-url", "https://b.example.com/in"]).json()
        #expect(updated["revenuecatSecret"] is NSNull && updated["appAppleId"] as? Int == 77)
        #expect(updated["forwardUrl"] as? String == "https://b.example.com/in")

        let spelledWithEquals = try admin(fixture, ["update", "--app=\(appId)", "--app-apple-id=78"]).json()
        #expect(spelledWithEquals["appAppleId"] as? Int == 78)
        for fixed in ["--platform", "--project"] {
            let refused = try admin(fixture, ["update", "--app", appId, fixed, "ios"])
            #expect(refused.status == .exited(2) && refused.stderr.contains("\(fixed) cannot change"),
                    "\(refused.stderr)")
        }

        let rotated = try admin(fixture, ["rotate-token", "--app", appId]).json()
        let newToken = try #require(rotated["storeToken"] as? String)
        #expect(newToken != token && rotated["appId"] as? String == appId)
        #expect((rotated["storeUrls"] as? [String: String])?["revenuecat"] == base + "revenuecat/" + newToken)
        #expect(try fixture.model.lookup.storeApp(token: token) == nil)
        #expect(try fixture.model.lookup.storeApp(token: newToken) != nil)

        let added = try admin(fixture, ["destination", "add", "--app", appId, "--scheme", "x3", "--url",
                                        "https://c.example.com/in", "--secret", "k1"])
        let destination = try #require(try added.json()["destinationId"] as? String)
        #expect(added.stdout == #"{"destinationId":"\#(destination)"}"# + "\n")
        let removed = try admin(fixture, ["destination", "remove", "--app", appId, "--destination", destination])
        #expect(removed.stdout == #"{"appId":"\#(appId)","destinationId":"\#(destination)","removed":true}"# + "\n")
        let again = try admin(fixture, ["destination", "remove", "--app", appId, "--destination", destination])
        #expect(again.status == .exited(1) && again.stderr.contains("the app has no destination with this id"))
        // The S2S view of the project shows the same app.
        #expect(jsonObject(fixture.send(.get, "/s2s/v1/apps/\(appId)", key: tenant.key))["appAppleId"] as? Int == 78)
    }

    @Test func badArgumentsExit2NamingTheFlagAndAnUnknownAppExits1() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let ios = try #require(try admin(fixture, ["create", "--project", tenant.project, "--platform", "ios",
                                                   "--bundle-id", "a.b"]).json()["appId"] as? String)
        let android = try #require(try admin(fixture, ["create", "--project", tenant.project, "--platform", "android",
                                                       "--bundle-id", "a.b"]).json()["appId"] as? String)
        let cases: [([String], String)] = [
            (["create", "--project", tenant.project, "--platform", "web", "--bundle-id", "a"], "field '--platform'"),
            (["create", "--project", tenant.project, "--platform", "android", "--bundle-id", "a"],
             "field '--bundle-id'"),
            (["create", "--project", tenant.project, "--platform", "ios", "--bundle-id", "a", "--app-apple-id", "-1"],
             "field '--app-apple-id'"),
            (["create", "--project", tenant.project, "--platform", "ios", "--bundle-id", "a", "--forward-url",
              "ftp://x"], "field '--forward-url'"),
            (["create", "--project", tenant.project, "--platform", "ios", "--bundle-id", "a",
              "--google-service-account-key", "/nonexistent/key.json"], "field '--google-service-account-key'"),
            (["create", "--project", "nope", "--platform", "ios", "--bundle-id", "a"], "field '--project'"),
            (["create", "--project", tenant.project, "--platform", "ios"], "--bundle-id is required"),
            (["update", "--app", ios], "give at least one setting to change"),
            (["update", "--app", android, "--bundle-id", "a..b"], "field '--bundle-id'"),
            (["show", "--app", "x"], "field '--app'"),
            (["destination", "add", "--app", ios, "--scheme", "attribloom", "--url", "https://e.example.com"],
             "field '--secret' must be given for an attribloom destination"),
            (["destination", "add", "--app", ios, "--scheme", "x3", "--url", "https://e.example.com", "--secret",
              "a b"], "field '--secret'"),
            (["rename", "--app", ios], "unknown subcommand \"app rename\""),
        ]
        for (arguments, message) in cases {
            let outcome = try admin(fixture, arguments)
            #expect(outcome.status == .exited(2), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        // Valid on their own, conflicting with the app: the command fails (exit 1), naming the flag.
        for (arguments, message) in [
            (["update", "--app", android, "--bundle-id", "App"], "field '--bundle-id'"),
            (["destination", "add", "--app", android, "--scheme", "attribloom", "--url", "https://e.example.com",
              "--secret", "s"], "field '--scheme' must be x3 for an android app"),
        ] {
            let outcome = try admin(fixture, arguments)
            #expect(outcome.status == .exited(1), "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
        let unknown = UUID().uuidString.lowercased()
        for arguments in [["show", "--app", unknown], ["rotate-token", "--app", unknown],
                          ["create", "--project", unknown, "--platform", "ios", "--bundle-id", "a"]] {
            let outcome = try admin(fixture, arguments)
            #expect(outcome.status == .exited(1), "\(arguments)")
        }
        let withoutKey = try fixture.tenants.admin(["app", "show", "--app", ios],
                                                   environment: ["HANDOFF_MASTER_KEY": ""])
        #expect(withoutKey.status == .exited(2) && withoutKey.stderr.contains("HANDOFF_MASTER_KEY is required"))
    }
}
