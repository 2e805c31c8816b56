import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Apps over S2S (issue 14): create, read, change, rotate the store token, destinations; secrets write-only.
@Suite struct AppTests {
    static let fullIOS = """
        {"platform":"ios","bundleId":"com.example.Reader","appAppleId":1234567890,\
        "forwardUrl":"https://api.example.com/store","revenuecatSecret":"Bearer rc-secret",\
        "googlePushAudience":"aud-1","googlePushServiceAccount":"push@p-1.iam.gserviceaccount.com",\
        "googleServiceAccountKey":\(AppFixture.keyFileJSON)}
        """

    /// A new app's `ingest` member: the AppConfig defaults and `rev`.
    static func defaultIngest(rev: Int) -> String {
        #"{"attestation":false,"enabled":true,"events":{"blocked":[]},"flush":{"events":50,"intervalMs":15000},"#
            + #""identify":{"enabled":true},"leads":{"enabled":false},"links":{"hosts":[],"pathPrefix":"/"},"#
            + #""recording":{"enabled":false,"excludeScreens":[],"health":false,"maskAnchors":[],"maskImages":true,"#
            + #""maskText":true,"maxFps":1,"sampleRate":0,"screenshots":false,"unmaskAnchors":[],"wifiOnly":true},"#
            + #""rev":\#(rev),"screens":{"exclude":[]},"session":{"timeoutMs":1800000},"signupIsLead":false,"#
            + #""skan":false}"#
    }

    @Test func creatingAnAppAnswersItsStoreTokenAndURLsOnceAndSecretsOnlyAsSet() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let created = try fixture.createApp(key: tenant.key, Self.fullIOS)
        let appId = try #require(created["appId"] as? String)
        let token = try #require(created["storeToken"] as? String)
        #expect(StoreToken.parse(token) != nil)
        let publishableKey = try #require(created["publishableKey"] as? String)
        #expect(PublishableKey.parse(publishableKey) != nil)
        let destinations = try #require(created["destinations"] as? [[String: Any]])
        let forwardId = try #require(destinations.first?["destinationId"] as? String)
        let rev = try #require((created["ingest"] as? [String: Any])?["rev"] as? Int)
        let set = #"{"set":true}"#
        let app = #"{"appAppleId":1234567890,"appId":"\#(appId)","bundleId":"com.example.Reader","# +
            #""destinations":[{"destinationId":"\#(forwardId)","isDefault":true,"scheme":"x3","secret":null,"# +
            #""url":"https://api.example.com/store"}],"forwardUrl":"https://api.example.com/store","# +
            #""googlePushAudience":\#(set),"googlePushServiceAccount":\#(set),"googleServiceAccountKey":\#(set),"# +
            #""ingest":\#(Self.defaultIngest(rev: rev)),"metaInstallReferrerKey":null,"# +
            #""platform":"ios","projectId":"\#(tenant.project)","publishableKey":"\#(publishableKey)","# +
            #""revenuecatSecret":\#(set)"#
        let base = "https://handoff.example.com/v1/m/store/"
        let response = fixture.send(.get, "/s2s/v1/apps/\(appId)", key: tenant.key)
        #expect(response.status == 200)
        #expect(bodyText(response) == app + "}")
        let shown = fixture.send(.get, "/s2s/v1/apps", key: tenant.key)
        #expect(bodyText(shown) == #"{"apps":["# + app + "}]}")
        #expect(created["storeUrls"] as? [String: String] == [
            "apple": base + "apple/" + token, "google": base + "google/" + token,
            "revenuecat": base + "revenuecat/" + token,
        ])

        // Neither the token nor any secret is stored in clear, in the log or in the projections.
        let owner = try fixture.tenants.ownerConnection()
        let dump = try owner.query("""
            SELECT (SELECT string_agg(data::text, ' ') FROM events) || (SELECT string_agg(a::text, ' ') FROM apps a)
                || (SELECT string_agg(t::text, ' ') FROM app_store_tokens t) AS text
            """).rows[0].string("text")
        for secret in [token, "rc-secret", "aud-1", "push@p-1", "MIIBVQIBADANBgkq"] {
            #expect(!dump.contains(secret), "\(secret)")
        }
    }

    @Test func storeIntakeReadsTheAppWithItsSecretsOpenedByItsToken() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let created = try fixture.createApp(key: tenant.key, Self.fullIOS)
        let token = try #require(created["storeToken"] as? String)
        let app = try #require(try fixture.model.lookup.storeApp(token: token))
        #expect(app.appId.description == created["appId"] as? String)
        #expect(app.orgId.description == tenant.org && app.projectId.description == tenant.project)
        #expect(app.platform == .ios && app.bundleId == "com.example.Reader" && app.appAppleId == 1_234_567_890)
        let parsed = try #require(StoreToken.parse(token))
        #expect(app.storeTokenHash == AppLookup.tokenHash(parsed))
        #expect(app.revenuecatSecret == "Bearer rc-secret" && app.googlePushAudience == "aud-1")
        #expect(app.googlePushServiceAccount == "push@p-1.iam.gserviceaccount.com")
        let key = try GoogleServiceAccountKey.parse(jsonText: try #require(app.googleServiceAccountKey), field: "k")
            .get()
        #expect(key.privateKey == AppFixture.pem && key.clientEmail == "play@p-1.iam.gserviceaccount.com")
        #expect(app.destinations.map(\.description) == (created["destinations"] as? [[String: Any]])?
            .compactMap { $0["destinationId"] as? String })
        for miss in [String(repeating: "A", count: 32), "short", token + "x", String(token.dropLast()) + "."] {
            #expect(try fixture.model.lookup.storeApp(token: miss) == nil, "\(miss)")
        }
    }

    @Test func theServiceAccountKeyMayBeSentAsTheKeyFilesTextInOneString() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let asText = String(decoding: try JSONEncoder().encode(AppFixture.keyFileJSON), as: UTF8.self)
        let created = try fixture.createApp(key: tenant.key, """
            {"platform":"android","bundleId":"com.example.reader","googleServiceAccountKey":\(asText)}
            """)
        let token = try #require(created["storeToken"] as? String)
        let app = try #require(try fixture.model.lookup.storeApp(token: token))
        let key = try GoogleServiceAccountKey.parse(jsonText: try #require(app.googleServiceAccountKey), field: "k")
            .get()
        #expect(key.privateKey == AppFixture.pem && key.clientEmail == "play@p-1.iam.gserviceaccount.com")
        let refused = fixture.send(.post, "/s2s/v1/apps", key: tenant.key,
                                   body: #"{"platform":"ios","bundleId":"a","googleServiceAccountKey":"not json"}"#)
        #expect(refused.status == 400)
        #expect(bodyText(refused).contains("'googleServiceAccountKey'"))
    }

    @Test func anAppIsRefusedFieldByField() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let cases: [(String, String)] = [
            (#"{"platform":"iOS","bundleId":"a"}"#,
             #""code":"VALIDATION_PLATFORM_FORMAT","message":"field 'platform' must be ios or android"}"#),
            (#"{"platform":"android","bundleId":"App"}"#,
             #""code":"VALIDATION_BUNDLE_ID_FORMAT","message":"field 'bundleId' must be an Android package name: "# +
             #"two or more '.'-separated segments, each a letter followed by letters, digits or '_'"}"#),
            (#"{"platform":"ios","bundleId":"a","appAppleId":0}"#,
             #""code":"VALIDATION_APP_APPLE_ID_FORMAT","message":"field 'appAppleId' must be a positive integer "# +
             #"(the App Store's app id)"}"#),
            (#"{"platform":"ios","bundleId":"a","forwardUrl":"https://u:p@example.com/"}"#,
             #""code":"VALIDATION_FORWARD_URL_FORMAT","message":"field 'forwardUrl' must be an absolute http or "# +
             #"https URL with a host name (not an IP address), without user info or fragment, at most 2048 "# +
             #"characters"}"#),
            (#"{"platform":"ios","bundleId":"a","revenuecatSecret":"a\tb"}"#,
             #""code":"VALIDATION_SECRET_FORMAT","message":"field 'revenuecatSecret' must be 1–512 printable "# +
             #"ASCII characters, spaces only between others"}"#),
            (#"{"platform":"ios","bundleId":"a","googleServiceAccountKey":{"type":"service_account"}}"#,
             #""code":"VALIDATION_SERVICE_ACCOUNT_KEY_FORMAT","message":"field "# +
             #"'googleServiceAccountKey.client_email' must be given"}"#),
            (#"{"platform":"ios","bundleId":"a","colour":"red"}"#,
             #""code":"VALIDATION_FAILED","message":"field 'colour' is not a field of an app"}"#),
            (#"{"platform":"ios"}"#, #""code":"VALIDATION_FAILED","message":"field 'bundleId' is required"}"#),
        ]
        for (body, answer) in cases {
            let response = fixture.send(.post, "/s2s/v1/apps", key: tenant.key, body: body)
            #expect(response.status == 400, "\(body)")
            #expect(bodyText(response) == #"{"statusCode":400,"# + answer, "\(body)")
        }
        #expect(try fixture.tenants.ownerConnection().query("SELECT count(*) AS n FROM apps").rows[0].int("n") == 0)
    }

    @Test func patchingChangesWhatItNamesAndTheForwardURLIsTheDefaultDestination() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let created = try fixture.createApp(key: tenant.key, #"{"platform":"android","bundleId":"com.example.app","# +
            #""revenuecatSecret":"s","forwardUrl":"https://a.example.com/in"}"#)
        let appId = try #require(created["appId"] as? String)
        let path = "/s2s/v1/apps/\(appId)"
        let patch = { (body: String) in fixture.send(.patch, path, key: tenant.key, body: body) }
        let changed = jsonObject(patch(#"{"bundleId":"com.example.app2","revenuecatSecret":null,"# +
            #""googlePushServiceAccount":"push@p.iam.gserviceaccount.com","forwardUrl":"https://b.example.com/in"}"#))
        #expect(changed["bundleId"] as? String == "com.example.app2")
        #expect(changed["revenuecatSecret"] is NSNull)
        #expect(changed["googlePushServiceAccount"] as? [String: Bool] == ["set": true])
        #expect(changed["forwardUrl"] as? String == "https://b.example.com/in")
        #expect((changed["destinations"] as? [[String: Any]])?.count == 1)
        #expect(jsonObject(fixture.send(.get, path, key: tenant.key))["forwardUrl"] as? String
            == "https://b.example.com/in")
        // Unchanged: nothing recorded.
        let owner = try fixture.tenants.ownerConnection()
        let count = { try owner.query("SELECT count(*) AS n FROM events WHERE stream_id = $1", [.text("app-\(appId)")])
            .rows[0].int("n") }
        let before = try count()
        #expect(patch("{}").status == 200)
        #expect(patch(#"{"bundleId":"com.example.app2","forwardUrl":"https://b.example.com/in"}"#).status == 200)
        #expect(try count() == before)
        // The platform's rule, the platform itself, a null bundle id.
        let ios = patch(#"{"bundleId":"App"}"#)
        #expect(ios.status == 409 && bodyText(ios).contains("APP_PLATFORM_CONFLICT"))
        let neither = patch(#"{"bundleId":"a..b"}"#)
        #expect(neither.status == 400 && bodyText(neither).contains("VALIDATION_BUNDLE_ID_FORMAT"))
        #expect(bodyText(patch(#"{"platform":"ios"}"#)) == #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
            #""message":"field 'platform' is not a field of an app that may change"}"#)
        #expect(bodyText(patch(#"{"bundleId":null}"#)).contains("field 'bundleId' must not be null"))
        // Removing the forward URL removes the default destination.
        let cleared = jsonObject(patch(#"{"forwardUrl":null}"#))
        #expect(cleared["forwardUrl"] is NSNull && (cleared["destinations"] as? [Any])?.isEmpty == true)
    }

    @Test func rotatingTheTokenStopsTheOldOneAtOnceAndKeepsItForQueuedForwards() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let created = try fixture.createApp(key: tenant.key, #"{"platform":"ios","bundleId":"com.example.App","# +
            #""forwardUrl":"https://a.example.com/in"}"#)
        let appId = try #require(created["appId"] as? String)
        let old = try #require(created["storeToken"] as? String)
        let oldApp = try #require(try fixture.model.lookup.storeApp(token: old))
        let rotated = fixture.send(.post, "/s2s/v1/apps/\(appId)/store-token", key: tenant.key)
        #expect(rotated.status == 200)
        let new = try #require(jsonObject(rotated)["storeToken"] as? String)
        #expect(new != old)
        #expect((jsonObject(rotated)["storeUrls"] as? [String: String])?["google"]
            == "https://handoff.example.com/v1/m/store/google/" + new)
        #expect(try fixture.model.lookup.storeApp(token: old) == nil)
        #expect(try fixture.model.lookup.storeApp(token: new)?.appId.description == appId)
        // A forward queued under the old token still signs with it.
        let destination = try #require(oldApp.destinations.first)
        let target = try #require(try fixture.model.lookup.forwardTarget(
            org: oldApp.orgId, appId: oldApp.appId, destinationId: destination, storeTokenHash: oldApp.storeTokenHash))
        #expect(target == AppLookup.ForwardTarget(url: "https://a.example.com/in", scheme: .x3, secret: nil,
                                                  storeToken: old, isDefault: true, removed: false))
        let newToken = try #require(StoreToken.parse(new))
        let current = try fixture.model.lookup.forwardTarget(
            org: oldApp.orgId, appId: oldApp.appId, destinationId: destination,
            storeTokenHash: AppLookup.tokenHash(newToken))
        #expect(current?.storeToken == new)
        #expect(try fixture.model.lookup.forwardTarget(org: oldApp.orgId, appId: oldApp.appId,
                                                       destinationId: destination,
                                                       storeTokenHash: String(repeating: "0", count: 64)) == nil)
    }

    @Test func destinationsAreAddedWithTheirSchemeAndSecretAndRemovedOnce() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let ios = try #require(try fixture.createApp(key: tenant.key, #"{"platform":"ios","bundleId":"a.b"}"#)["appId"]
            as? String)
        let android = try #require(try fixture.createApp(
            key: tenant.key, #"{"platform":"android","bundleId":"a.b"}"#)["appId"] as? String)
        let add = { (app: String, body: String) in
            fixture.send(.post, "/s2s/v1/apps/\(app)/destinations", key: tenant.key, body: body)
        }
        let attribloom = add(ios, #"{"scheme":"attribloom","url":"https://ea.example.com/v1/app-store/assn/s1","# +
            #""secret":"ea-secret"}"#)
        #expect(attribloom.status == 201)
        let id = try #require(jsonObject(attribloom)["destinationId"] as? String)
        #expect(bodyText(attribloom) == #"{"destinationId":"\#(id)","isDefault":false,"scheme":"attribloom","# +
            #""secret":{"set":true},"url":"https://ea.example.com/v1/app-store/assn/s1"}"#)
        #expect(bodyText(add(android, #"{"scheme":"attribloom","url":"https://e.example.com","secret":"s"}"#))
            == #"{"statusCode":409,"code":"APP_PLATFORM_CONFLICT","message":"field 'scheme' must "# +
            #"be x3 for an android app (attribloom takes App Store notifications only)"}"#)
        #expect(add(android, #"{"scheme":"x3","url":"https://e.example.com","secret":null}"#).status == 201)
        #expect(add(ios, #"{"scheme":"attribloom","url":"https://e.example.com","secret":null}"#).status == 400)
        #expect(bodyText(add(ios, #"{"scheme":"attribloom","url":"https://e.example.com"}"#))
            == #"{"statusCode":400,"code":"VALIDATION_SECRET_FORMAT","message":"field 'secret' must be given for "# +
            #"an attribloom destination"}"#)
        #expect(add(android, #"{"scheme":"x3","url":"http://hooks.example.com:8080/x?y=1"}"#).status == 201)

        let rotate = { () throws -> String in
            try #require(jsonObject(fixture.send(.post, "/s2s/v1/apps/\(ios)/store-token", key: tenant.key))[
                "storeToken"] as? String)
        }
        let storeApp = try #require(try fixture.model.lookup.storeApp(token: try rotate()))
        #expect(storeApp.destinations.map(\.description) == [id])
        let target = try fixture.model.lookup.forwardTarget(
            org: storeApp.orgId, appId: storeApp.appId, destinationId: try #require(storeApp.destinations.first),
            storeTokenHash: storeApp.storeTokenHash)
        #expect(target?.scheme == .attribloom && target?.secret == "ea-secret" && target?.removed == false)

        let remove = { fixture.send(.delete, "/s2s/v1/apps/\(ios)/destinations/\(id)", key: tenant.key) }
        let removed = remove()
        #expect(removed.status == 204 && removed.body.isEmpty)
        #expect(bodyText(remove()) == #"{"statusCode":404,"code":"NOT_FOUND","# +
            #""message":"the app has no destination with this id"}"#)
        #expect(try fixture.model.lookup.forwardTarget(
            org: storeApp.orgId, appId: storeApp.appId, destinationId: try #require(storeApp.destinations.first),
            storeTokenHash: storeApp.storeTokenHash)?.removed == true)
        #expect(try fixture.model.lookup.storeApp(token: try rotate())?.destinations == [])
        #expect(fixture.send(.delete, "/s2s/v1/apps/\(ios)/destinations/nope", key: tenant.key).status == 400)
    }

    @Test func anotherOrganizationsOrProjectsAppIsNotFoundOnEveryAppRoute() throws {
        let fixture = try AppFixture.migrated()
        let owner = try fixture.tenants.tenant()
        let stranger = try fixture.tenants.tenant()
        let sibling = try fixture.tenants.admin(["project", "create", "--org", owner.org, "--name", "Sibling"]).json()
        let siblingKey = try #require(sibling["secretKey"] as? String)
        let created = try fixture.createApp(key: owner.key, #"{"platform":"ios","bundleId":"a.b","# +
            #""forwardUrl":"https://a.example.com/in"}"#)
        let appId = try #require(created["appId"] as? String)
        let destination = try #require((created["destinations"] as? [[String: Any]])?.first?["destinationId"]
            as? String)
        let notFound = #"{"statusCode":404,"code":"NOT_FOUND","message":"no app has this id"}"#
        for key in [stranger.key, siblingKey] {
            let answers = [
                fixture.send(.get, "/s2s/v1/apps/\(appId)", key: key),
                fixture.send(.patch, "/s2s/v1/apps/\(appId)", key: key, body: #"{"forwardUrl":null}"#),
                fixture.send(.post, "/s2s/v1/apps/\(appId)/store-token", key: key),
                fixture.send(.post, "/s2s/v1/apps/\(appId)/destinations", key: key,
                             body: #"{"scheme":"x3","url":"https://evil.example.com"}"#),
                fixture.send(.delete, "/s2s/v1/apps/\(appId)/destinations/\(destination)", key: key),
            ]
            for answer in answers {
                #expect(answer.status == 404)
                #expect(bodyText(answer) == notFound)
            }
            #expect(bodyText(fixture.send(.get, "/s2s/v1/apps", key: key)) == #"{"apps":[]}"#)
        }
        // Nothing changed: the owner still sees its app as created, with its token working.
        let token = try #require(created["storeToken"] as? String)
        #expect(try fixture.model.lookup.storeApp(token: token)?.destinations.count == 1)
        #expect(fixture.send(.get, "/s2s/v1/apps/\(appId)", key: owner.key).status == 200)
        // The read model refuses the other org outright too.
        let app = try AppID.parse(appId).get()
        let strangerOrg = try OrgID.parse(stranger.org).get()
        #expect(try fixture.model.lookup.app(app, org: strangerOrg) == nil)
        #expect(fixture.send(.get, "/s2s/v1/apps/not-a-uuid", key: owner.key).status == 400)
    }

    @Test func theEventsFeedShowsAppSecretsAndTokensRedacted() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        _ = try fixture.createApp(key: tenant.key, #"{"platform":"ios","bundleId":"a.b","revenuecatSecret":"s"}"#)
        let feed = bodyText(fixture.send(.get, "/s2s/v1/events", key: tenant.key))
        #expect(feed.contains(#""revenuecatSecret":{"redacted":true}"#))
        #expect(feed.contains(#""storeToken":{"redacted":true}"#))
        #expect(!feed.contains("pd1."))
    }

    @Test func replayRebuildsTheAppTablesEqualToTheLiveOnes() throws {
        let fixture = try AppFixture.migrated()
        let tenant = try fixture.tenants.tenant()
        let appId = try #require(try fixture.createApp(key: tenant.key, Self.fullIOS)["appId"] as? String)
        _ = fixture.send(.patch, "/s2s/v1/apps/\(appId)", key: tenant.key,
                         body: #"{"forwardUrl":"https://c.example.com","revenuecatSecret":null}"#)
        _ = fixture.send(.post, "/s2s/v1/apps/\(appId)/store-token", key: tenant.key)
        _ = fixture.send(.post, "/s2s/v1/apps/\(appId)/destinations", key: tenant.key,
                         body: #"{"scheme":"x3","url":"https://d.example.com","secret":"k"}"#)
        _ = fixture.mintToken(projectId: tenant.project, guid: "device-1")
        let owner = try fixture.tenants.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try ["apps ORDER BY app_id", "app_store_tokens ORDER BY token_hash",
                 "app_destinations ORDER BY destination_id", "app_account_tokens ORDER BY org_id, guid"]
                .flatMap { try owner.query("SELECT * FROM \($0)").rows.map(\.values) + [["--"]] }
        }
        let live = try snapshot()
        #expect(live.count == 1 + 1 + 2 + 1 + 3 + 1 + 1 + 1)
        try owner.execute("DELETE FROM apps; DELETE FROM app_store_tokens; DELETE FROM app_destinations; "
                          + "DELETE FROM app_account_tokens")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("apps") && report.tables.contains("app_account_tokens"))
        #expect(try snapshot() == live)
    }
}
