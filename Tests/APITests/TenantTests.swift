import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Tenants and keys (issue 4): `handoff admin`, the S2S key gate, `GET`/`PATCH /s2s/v1/project`, replay.
@Suite struct TenantTests {
    private func unauthorized(_ message: String) -> String {
        #"{"statusCode":401,"code":"UNAUTHORIZED","message":"\#(message)"}"#
    }

    @Test func adminCreatesAnOrgAProjectAndKeysAndRevokesOne() throws {
        let fixture = try TenantFixture.migrated()
        let org = try fixture.admin(["org", "create", "--name", "Acme"])
        #expect(org.status == .exited(0))
        let orgId = try #require(try org.json()["orgId"] as? String)
        #expect(org.stdout == #"{"orgId":"\#(orgId)"}"# + "\n")

        let project = try fixture.admin([
            "project", "create", "--org", orgId, "--name", "Reader", "--paywall-url", "https://pay.example.com/p",
            "--return-scheme", "ReaderApp", "--android-package", "com.acme.reader",
            "--ios-bundle-id", "com.acme.Reader", "--fingerprint", "on", "--tracker", "adjust",
            "--tracker-link", "https://app.adjust.com/abc",
        ])
        let created = try project.json()
        let projectId = try #require(created["projectId"] as? String)
        let firstKey = try #require(created["secretKey"] as? String)
        #expect(firstKey.hasPrefix("sk_live_") && firstKey.count == 67)

        let second = try #require(try fixture.admin(["key", "create", "--project", projectId]).json()["secretKey"]
            as? String)
        #expect(second != firstKey)
        let prefix = String(second.prefix(16))
        let revoked = try fixture.admin(["key", "revoke", "--project", projectId, "--prefix", prefix])
        #expect(revoked.stdout == #"{"prefix":"\#(prefix)","revoked":1}"# + "\n")
        let again = try fixture.admin(["key", "revoke", "--project", projectId, "--prefix", prefix])
        #expect(again.status == .exited(1))
        #expect(again.stderr.contains("no live key with this prefix"))

        let updated = try fixture.admin(["project", "update", projectId, "--name", "Reader 2", "--tracker", "none",
                                         "--email-verification", "mailbox", "--landing-url",
                                         "https://reader.example.com/join"])
        #expect(updated.stdout
            == #"{"androidPackage":"com.acme.reader","emailVerification":"mailbox","fingerprint":true,"# +
            #""iosBundleId":"com.acme.Reader","landingUrl":"https://reader.example.com/join","# +
            #""name":"Reader 2","orgId":"\#(orgId)","paywallUrl":"https://pay.example.com/p","# +
            #""projectId":"\#(projectId)","returnScheme":"readerapp","tracker":"none","trackerLink":null}"# + "\n")

        // Only hashes and prefixes are stored: the key text appears nowhere in the database.
        let owner = try fixture.ownerConnection()
        let dump = try owner.query("""
            SELECT (SELECT string_agg(data::text, ' ') FROM events) || (SELECT string_agg(prefix, ' ') FROM secret_keys)
                AS text
            """).rows[0].string("text")
        #expect(!dump.contains(firstKey) && !dump.contains(second))
        #expect(try owner.query("SELECT count(*) AS n FROM secret_keys WHERE revoked_at IS NOT NULL")
            .rows[0].int("n") == 1)
    }

    @Test func adminRefusesBadArgumentsWithExit2NamingTheFlag() throws {
        let fixture = try TenantFixture.migrated()
        let org = try #require(try fixture.admin(["org", "create", "--name", "Acme"]).json()["orgId"] as? String)
        let cases: [([String], String)] = [
            (["org", "create"], "--name is required"),
            (["org", "create", "--name", "A", "--colour", "red"], "unknown argument \"--colour\""),
            (["project", "create", "--org", "nope", "--name", "A"], "field '--org'"),
            (["project", "create", "--org", org, "--name", "A", "--paywall-url", "ftp://x"], "field '--paywall-url'"),
            (["project", "create", "--org", org, "--name", "A", "--return-scheme", "https"], "field '--return-scheme'"),
            (["project", "create", "--org", org, "--name", "A", "--android-package", "x"], "field '--android-package'"),
            (["project", "create", "--org", org, "--name", "A", "--ios-bundle-id", "a..b"], "field '--ios-bundle-id'"),
            (["project", "create", "--org", org, "--name", "A", "--fingerprint", "yes"], "field '--fingerprint'"),
            (["project", "create", "--org", org, "--name", "A", "--tracker", "branch"], "field '--tracker'"),
            (["project", "create", "--org", org, "--name", "A", "--tracker", "adjust"], "field '--tracker-link'"),
            (["project", "create", "--org", org, "--name", "A", "--email-verification", "inbox"],
             "field '--email-verification' must be payment or mailbox"),
            (["project", "create", "--org", org, "--name", ""], "field '--name'"),
            (["key", "revoke", "--project", UUID().uuidString.lowercased(), "--prefix", "sk_live_"],
             "field '--prefix'"),
        ]
        for (arguments, expected) in cases {
            let outcome = try fixture.admin(arguments)
            #expect(outcome.status == .exited(2), "\(arguments)")
            #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        let unknownOrg = try fixture.admin(["project", "create", "--org", UUID().uuidString.lowercased(),
                                            "--name", "A"])
        #expect(unknownOrg.status == .exited(1))
        #expect(unknownOrg.stderr.contains("no organization has this id"))
    }

    @Test func missingMalformedUnknownAndRevokedKeysAnswer401() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()

        let missing = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: nil))
        #expect(missing.status == 401)
        #expect(bodyText(missing) == unauthorized("an Authorization header with 'Bearer sk_live_…' is required"))

        let basic = api.respond(to: Request(
            method: .get, path: "/s2s/v1/project", query: [:], headers: Headers([("Authorization", "Basic abc")]),
            body: [], clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
        #expect(bodyText(basic) == unauthorized("the Authorization header must be 'Bearer sk_live_…'"))
        let lowercaseScheme = api.respond(to: Request(
            method: .get, path: "/s2s/v1/project", query: [:],
            headers: Headers([("Authorization", "bearer " + tenant.key)]),
            body: [], clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
        #expect(lowercaseScheme.status == 200)

        // A typo fails the checksum and is refused before any lookup: this edge's database cannot even be reached.
        let noDatabase = try fixture.responder(postgresURL: "postgresql://handoff_app@127.0.0.1:1/none")
        var typo = Array(tenant.key)
        typo[30] = typo[30] == "a" ? "b" : "a"
        let malformed = noDatabase.respond(to: s2sRequest(.get, "/s2s/v1/project", key: String(typo)))
        #expect(malformed.status == 401)
        #expect(bodyText(malformed) == unauthorized("the secret key is malformed (check for a typo)"))
        // A well-formed key needs the lookup, which this edge cannot make: 503, neither 401 nor 500.
        let lookupImpossible = noDatabase.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        #expect(lookupImpossible.status == 503)
        #expect(lookupImpossible.headers["Retry-After"] == "1")

        let unknown = api.respond(to: s2sRequest(
            .get, "/s2s/v1/project", key: SecretKeyText.fresh()))
        #expect(unknown.status == 401)
        #expect(bodyText(unknown) == unauthorized("the secret key is unknown or revoked"))

        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)).status == 200)
        _ = try fixture.admin(["key", "revoke", "--project", tenant.project, "--prefix", String(tenant.key.prefix(16))])
        let revoked = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        #expect(revoked.status == 401)
        #expect(bodyText(revoked) == unauthorized("the secret key is unknown or revoked"))
    }

    @Test func getAndPatchProjectAnswerTheProjectAsJSON() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--paywall-url", "https://pay.example.com/"])
        let api = try fixture.responder()
        let shown = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        #expect(shown.status == 200)
        #expect(shown.headers["Content-Type"] == "application/json")
        // A new project has fingerprinting on (issue 12).
        #expect(bodyText(shown) == #"{"androidPackage":null,"emailVerification":"payment","fingerprint":true,"# +
            #""iosBundleId":null,"landingUrl":null,"name":"App","# +
            #""orgId":"\#(tenant.org)","paywallUrl":"https://pay.example.com/","projectId":"\#(tenant.project)","# +
            #""returnScheme":null,"tracker":"none","trackerLink":null}"#)

        let patched = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: """
            {"name":"App 2","paywallUrl":null,"returnScheme":"myapp","androidPackage":"com.a.b","iosBundleId":"com.a.B",
             "fingerprint":false,"tracker":"appsflyer","trackerLink":"https://app.appsflyer.com/x",
             "emailVerification":"mailbox","landingUrl":"https://land.example.com/in?src=aff"}
            """))
        let expected = #"{"androidPackage":"com.a.b","emailVerification":"mailbox","fingerprint":false,"# +
            #""iosBundleId":"com.a.B","landingUrl":"https://land.example.com/in?src=aff","name":"App 2","# +
            #""orgId":"\#(tenant.org)","paywallUrl":null,"projectId":"\#(tenant.project)","returnScheme":"myapp","# +
            #""tracker":"appsflyer","trackerLink":"https://app.appsflyer.com/x"}"#
        #expect(patched.status == 200)
        #expect(bodyText(patched) == expected)
        #expect(bodyText(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))) == expected)

        let owner = try fixture.ownerConnection()
        let types = try owner.query("""
            SELECT event_type, metadata->'actor'->>'kind' AS kind FROM events
            WHERE org_id = $1::uuid ORDER BY org_seq
            """, [.text(tenant.org)]).rows.map { try $0.string("event_type") + "/" + $0.string("kind") }
        #expect(types == ["OrganizationCreated/admin", "ProjectCreated/admin", "SecretKeyCreated/admin",
                          "ProjectSettingsChanged/key"])
    }

    @Test func patchRefusesEachBadFieldByNameBadJSONAndOversizedBodies() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        let cases: [(String, String)] = [
            (#"{"name":""}"#, #"{"statusCode":400,"code":"VALIDATION_PROJECT_NAME_FORMAT","# +
                #""message":"field 'name' must be 1 to 200 characters without control characters"}"#),
            (#"{"paywallUrl":"http://evil.example"}"#, "field 'paywallUrl'"),
            (#"{"returnScheme":"javascript"}"#, "field 'returnScheme'"),
            (#"{"androidPackage":"nodots"}"#, "field 'androidPackage'"),
            (#"{"iosBundleId":"a b"}"#, "field 'iosBundleId'"),
            (#"{"fingerprint":"yes"}"#,
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'fingerprint' must be a boolean"}"#),
            (#"{"tracker":"branch"}"#, "field 'tracker'"),
            (#"{"tracker":"adjust"}"#, "field 'trackerLink'"),
            (#"{"trackerLink":"https://x.example"}"#, "field 'trackerLink'"),
            (#"{"nmae":"x"}"#, "field 'nmae' is not a project setting"),
            (#"{"emailVerification":"inbox"}"#, #"{"statusCode":400,"code":"VALIDATION_EMAIL_VERIFICATION_FORMAT","# +
                #""message":"field 'emailVerification' must be payment or mailbox"}"#),
            (#"{"emailVerification":null}"#, "field 'emailVerification'"),
            (#"{"landingUrl":"http://land.example.com"}"#,
             #"{"statusCode":400,"code":"VALIDATION_LANDING_URL_FORMAT","# +
                #""message":"field 'landingUrl' must be an absolute https URL (http only for localhost) without "# +
                #"user info, at most 2048 characters"}"#),
            (#"{"landingUrl":7}"#, "field 'landingUrl' must be a string"),
            (#"{"name":"#, #"{"statusCode":400,"code":"INVALID_JSON","message":"the body is not valid JSON"}"#),
            ("[]", "INVALID_JSON"),
        ]
        for (body, expected) in cases {
            let response = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: body))
            #expect(response.status == 400, "\(body)")
            #expect(bodyText(response).contains(expected), "\(body): \(bodyText(response))")
        }
        #expect(api.bodyLimit(for: .patch, path: "/s2s/v1/project") == 16384)
        let tooLarge = api.payloadTooLarge(s2sRequest(.patch, "/s2s/v1/project", key: tenant.key))
        #expect(tooLarge.status == 413)
        #expect(bodyText(tooLarge) == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
            #""message":"the body is larger than the 16384 bytes this endpoint accepts"}"#)
        // Nothing was recorded by the refusals.
        let count = try fixture.ownerConnection().query("SELECT count(*) AS n FROM events WHERE org_id = $1::uuid",
                                                        [.text(tenant.org)]).rows[0].int("n")
        #expect(count == 3)
    }

    @Test func orgBsKeyNeverSeesOrChangesOrgAsProject() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant(["--return-scheme", "appa"])
        let b = try fixture.tenant()
        let api = try fixture.responder()
        let seenByB = bodyText(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: b.key)))
        #expect(seenByB.contains(b.project) && !seenByB.contains(a.project) && !seenByB.contains("appa"))
        let patchedByB = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: b.key, body: #"{"name":"Mine"}"#))
        #expect(patchedByB.status == 200 && bodyText(patchedByB).contains(b.project))
        let aNow = bodyText(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: a.key)))
        #expect(aNow.contains(#""name":"App""#) && aNow.contains(a.project) && aNow.contains("appa"))
        // The project id of A in a query or body changes nothing: the key alone picks the project.
        let smuggled = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: b.key,
                                                  body: #"{"projectId":"\#(a.project)","name":"X"}"#))
        #expect(smuggled.status == 400)
    }

    @Test func replayRebuildsTheTenantTablesEqualToTheLiveOnes() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant(["--fingerprint", "on"])
        let b = try fixture.tenant()
        _ = try fixture.admin(["key", "create", "--project", a.project])
        _ = try fixture.admin(["key", "revoke", "--project", a.project, "--prefix", String(a.key.prefix(16))])
        let api = try fixture.responder()
        _ = try fixture.admin(["project", "update", a.project, "--tracker", "adjust",
                               "--tracker-link", "https://a.b/c", "--landing-url", "https://land.example/a"])
        let owner = try fixture.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM organizations ORDER BY org_id").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM projects ORDER BY project_id").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM secret_keys ORDER BY key_hash").rows.map(\.values)
        }
        let patched = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: b.key,
                                                 body: #"{"name":"B2","returnScheme":"bee"}"#))
        #expect(patched.status == 200)
        let live = try snapshot()
        #expect(live.count == 2 + 1 + 2 + 1 + 3)
        try owner.execute("UPDATE projects SET name = 'wrong'; DELETE FROM secret_keys")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables == ["organizations", "projects", "secret_keys", "buyers", "buyer_emails",
                                 "payments", "handoff_codes", "fingerprints", "apps", "app_store_tokens",
                                 "app_destinations", "app_account_tokens", "store_notifications",
                                 "store_deliveries", "surfaces", "affiliate_campaigns", "affiliates",
                                 "affiliate_clicks", "affiliate_referrals", "commissions", "org_auditors",
                                 "app_ingest_configs", "app_leads", "app_installs", "go_links", "proxy_keys"])
        #expect(try snapshot() == live)
    }
}
