import API
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /s2s/v1/users` (issue 4, "Users"): find or create a buyer by externalId or e-mail, with a paywall URL.
@Suite struct UserTests {
    private func createUser(_ api: APIResponder, key: String, _ body: String) -> Response {
        api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: key, body: body))
    }

    private func guid(_ response: Response) -> String { jsonObject(response)["guid"] as? String ?? "" }

    private func buyerCreatedCount(_ fixture: TenantFixture, org: String) throws -> Int {
        try fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = 'BuyerCreated'",
            [.text(org)]).rows[0].int("n")
    }

    @Test func neitherExternalIdNorEmailAnswers400WithItsCode() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        let expected = #"{"statusCode":400,"code":"VALIDATION_EXTERNAL_ID_OR_EMAIL_REQUIRED","# +
            #""message":"field 'externalId' or field 'email' is required"}"#
        for body in ["{}", #"{"externalId":null}"#, #"{"externalId":null,"email":null}"#] {
            let response = createUser(api, key: tenant.key, body)
            #expect(response.status == 400, "\(body)")
            #expect(bodyText(response) == expected, "\(body)")
        }
        #expect(try buyerCreatedCount(fixture, org: tenant.org) == 0)
    }

    @Test func badFieldsAreRefusedByNameAndOversizedBodiesWith413() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        let externalIdRule = #"{"statusCode":400,"code":"VALIDATION_EXTERNAL_ID_FORMAT","# +
            #""message":"field 'externalId' must be 1–256 printable characters without leading or trailing spaces"}"#
        let emailRule = #"{"statusCode":400,"code":"VALIDATION_EMAIL_FORMAT","# +
            #""message":"field 'email' must be an e-mail address of at most 254 characters"}"#
        let cases: [(String, String)] = [
            (#"{"externalId":""}"#, externalIdRule),
            (#"{"externalId":"\#(String(repeating: "x", count: 257))"}"#, externalIdRule),
            (#"{"externalId":"a\nb"}"#, externalIdRule),
            (#"{"externalId":" padded"}"#, externalIdRule),
            (#"{"externalId":5}"#, #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'externalId' must be a string"}"#),
            (#"{"email":"nope"}"#, emailRule),
            (#"{"email":"a@b.c\r\nBcc: x@y.z"}"#, emailRule),
            (#"{"email":"a@@b.c"}"#, emailRule),
            (#"{"email":"a@localhost"}"#, emailRule),
            (#"{"email":"\#(String(repeating: "a", count: 64))@\#(String(repeating: "b", count: 186)).com"}"#,
             emailRule),
            (#"{"externalId":"ok","email":"bad"}"#, emailRule),
            (#"{"externalID":"u1"}"#, #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'externalID' is not a field of a user"}"#),
            (#"{"externalId":"#, #"{"statusCode":400,"code":"INVALID_JSON","message":"the body is not valid JSON"}"#),
            ("", #"{"statusCode":400,"code":"INVALID_JSON","message":"the body is empty; a JSON object is required"}"#),
        ]
        for (body, expected) in cases {
            let response = createUser(api, key: tenant.key, body)
            #expect(response.status == 400, "\(body)")
            #expect(bodyText(response) == expected, "\(body): \(bodyText(response))")
        }
        // The longest accepted values pass.
        let longest = createUser(api, key: tenant.key, #"{"externalId":"\#(String(repeating: "é", count: 256))","# +
            #""email":"\#(String(repeating: "a", count: 64))@\#(String(repeating: "b", count: 185)).com"}"#)
        #expect(longest.status == 200)

        #expect(api.bodyLimit(for: .post, path: "/s2s/v1/users") == 8192)
        let tooLarge = api.payloadTooLarge(s2sRequest(.post, "/s2s/v1/users", key: tenant.key))
        #expect(tooLarge.status == 413)
        #expect(bodyText(tooLarge) == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
            #""message":"the body is larger than the 8192 bytes this endpoint accepts"}"#)
        #expect(createUser(api, key: SecretKeyText.fresh(), #"{"externalId":"u"}"#).status == 401)
        #expect(try buyerCreatedCount(fixture, org: tenant.org) == 1)
    }

    @Test func theSameExternalIdInTheSameOrgIsTheSameGuidAndAnotherOrgGetsItsOwn() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let a2 = try fixture.admin(["project", "create", "--org", a.org, "--name", "Second"]).json()
        let b = try fixture.tenant()
        let api = try fixture.responder()
        let first = createUser(api, key: a.key, #"{"externalId":"user-42"}"#)
        #expect(first.status == 200)
        let guid = guid(first)
        #expect(BuyerGuid.parse(guid).map(\.description) == .success(guid))
        #expect(bodyText(first) == #"{"guid":"\#(guid)","paywallUrl":null,"user_id":"\#(guid)"}"#)
        #expect(bodyText(createUser(api, key: a.key, #"{"externalId":"user-42"}"#)) == bodyText(first))
        // Another project of the same org shares the org's buyers; an e-mail next to a known externalId changes
        // nothing about who it is.
        let fromSecond = createUser(api, key: a2["secretKey"] as! String,
                                    #"{"externalId":"user-42","email":"x@example.com"}"#)
        #expect(self.guid(fromSecond) == guid)
        // Exact comparison: another spelling is another buyer.
        #expect(self.guid(createUser(api, key: a.key, #"{"externalId":"USER-42"}"#)) != guid)
        let inB = self.guid(createUser(api, key: b.key, #"{"externalId":"user-42"}"#))
        #expect(inB != guid && !inB.isEmpty)
        #expect(try buyerCreatedCount(fixture, org: a.org) == 2)
        #expect(try buyerCreatedCount(fixture, org: b.org) == 1)
        let home = try fixture.ownerConnection().query(
            "SELECT org_id::text AS org, project_id::text AS project, external_id FROM buyers WHERE guid = $1",
            [.text(guid)]).rows[0]
        #expect(try home.string("org") == a.org && home.string("project") == a.project)
        #expect(try home.string("external_id") == "user-42")
    }

    @Test func fiftyConcurrentRequestsWithOneExternalIdGetOneGuidAndOneBuyerCreated() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(poolSize: 16)
        let answers = Answers()
        onThreads(50) { _ in
            let response = createUser(api, key: tenant.key, #"{"externalId":"racer"}"#)
            answers.add(response.status, guid(response))
        }
        #expect(answers.statuses == Array(repeating: 200, count: 50))
        #expect(answers.guids.count == 1 && !(answers.guids.first ?? "").isEmpty)
        #expect(try buyerCreatedCount(fixture, org: tenant.org) == 1)
    }

    @Test func anEmailAloneFindsOnlyAVerifiedBuyerOtherwiseMakesANewOne() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let other = try fixture.tenant()
        let api = try fixture.responder()
        let first = guid(createUser(api, key: tenant.key, #"{"email":"Buyer+1@Example.com"}"#))
        // Unverified: anyone can type any address, so the same e-mail makes a new buyer.
        let second = guid(createUser(api, key: tenant.key, #"{"email":"buyer+1@example.com"}"#))
        #expect(!first.isEmpty && second != first)

        // Nothing verifies e-mails yet (that comes with redeeming codes): this test marks the first buyer's e-mail
        // verified by writing the projection row directly as the owner role.
        let owner = try fixture.ownerConnection()
        try owner.query("UPDATE buyer_emails SET verified = true WHERE guid = $1", [.text(first)])
        #expect(guid(createUser(api, key: tenant.key, #"{"email":"BUYER+1@EXAMPLE.COM"}"#)) == first)
        #expect(guid(createUser(api, key: tenant.key, #"{"email":"buyer+1@example.com"}"#)) == first)
        // The verified e-mail of org A is nothing to org B.
        let inB = guid(createUser(api, key: other.key, #"{"email":"buyer+1@example.com"}"#))
        #expect(inB != first && !inB.isEmpty)

        // The event holds the e-mail sealed for the buyer and its lookup reference — random, mapped to the lookup hash
        // only in `lookup_refs` — never the address in clear nor its hash.
        let data = try owner.query("""
            SELECT data::text AS data, data->>'email' AS email, data->>'emailRef' AS ref, schema_version FROM events
            WHERE org_id = $1::uuid AND stream_id = $2
            """, [.text(tenant.org), .text("buyer-" + first)]).rows[0]
        let hash = LookupHash.email("buyer+1@example.com", pepper: TestIdentity.secrets().lookupPepper)
        #expect(try data.string("email").hasPrefix("pd1."))
        #expect(try data.string("ref").count == 64 && data.int("schema_version") == 2)
        #expect(try !data.string("data").contains(hash) && !data.string("data").contains("emailHash"))
        #expect(try owner.query("SELECT hash FROM lookup_refs WHERE org_id = $1::uuid AND ref = $2",
                                [.text(tenant.org), .text(data.string("ref"))]).rows.first?.string("hash") == hash)
        #expect(try !data.string("data").lowercased().contains("example.com"))
        #expect(try owner.query("SELECT count(*) AS n FROM subject_keys WHERE subject_id = $1", [.text(first)])
            .rows[0].int("n") == 1)
    }

    @Test func paywallUrlCarriesAPassTheEmailAndOriginAndIsNullWithoutAPaywall() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--paywall-url", "https://pay.example.com/p?plan=gold#top"])
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        let api = try fixture.responder(clock: { now })

        let withEmail = createUser(api, key: tenant.key, #"{"externalId":"u1","email":"a+b@example.com"}"#)
        let guid = guid(withEmail)
        let url = try #require(jsonObject(withEmail)["paywallUrl"] as? String)
        let pass = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "pass" }?.value)
        #expect(url == "https://pay.example.com/p?plan=gold&pass=\(pass)&email=a%2Bb%40example.com&origin=app#top")
        #expect(bodyText(withEmail) == #"{"guid":"\#(guid)","paywallUrl":"\#(url)","user_id":"\#(guid)"}"#)
        let claims = PassClaims(guid: try BuyerGuid.parse(guid).get(),
                                projectID: try ProjectID.parse(tenant.project).get(),
                                expiresAt: Date(timeIntervalSince1970: 1_800_086_400))
        #expect(Pass.verify(pass, now: now, keys: TestIdentity.secrets().passKeys) == .valid(claims))

        let withoutEmail = createUser(api, key: tenant.key, #"{"externalId":"u1"}"#)
        let plain = try #require(jsonObject(withoutEmail)["paywallUrl"] as? String)
        #expect(plain.hasPrefix("https://pay.example.com/p?plan=gold&pass=v2.") && plain.hasSuffix("&origin=app#top"))
        #expect(!plain.contains("email="))

        let bare = try fixture.tenant()
        let none = createUser(api, key: bare.key, #"{"email":"a@example.com"}"#)
        #expect(bodyText(none) == #"{"guid":"\#(self.guid(none))","paywallUrl":null,"user_id":"\#(self.guid(none))"}"#)
    }

    @Test func withoutIdentitySecretsTheEndpointAnswers503AndRecordsNothing() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(identity: nil)
        let response = createUser(api, key: tenant.key, #"{"externalId":"u1"}"#)
        #expect(response.status == 503)
        #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"buyer identity is not configured on this server"}"#)
        #expect(try buyerCreatedCount(fixture, org: tenant.org) == 0)
    }
}
