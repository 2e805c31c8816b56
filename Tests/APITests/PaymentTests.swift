import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /s2s/v1/payments` (issue 4, "Payments and codes"): buyer binding, two codes, idempotency.
@Suite struct PaymentTests {
    static let expiresAtRule =
        "field 'expiresAt' must be an RFC 3339 date-time from 1970 to 9999 (after its offset) or null"

    static let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let guidA = "0f8fad5b-d9cb-469f-a165-70867728950e"

    static func body(guid: String = guidA, paymentId: String = "pi_1", amount: String = "999",
                     currency: String = "\"EUR\"", expiresAt: String = "\"2027-02-15T08:00:00Z\"",
                     extra: String = "") -> String {
        #"{"guid":"\#(guid)","paymentId":"\#(paymentId)","amount":\#(amount),"currency":\#(currency),"# +
            #""productId":"com.app.pro_monthly","entitlement":"pro","expiresAt":\#(expiresAt)\#(extra)}"#
    }

    private func pay(_ api: APIResponder, key: String, _ body: String) -> Response {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: body))
    }

    private func count(_ fixture: TenantFixture, _ type: String, org: String? = nil) throws -> Int {
        if let org {
            return try fixture.ownerConnection().query(
                "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
                [.text(org), .text(type)]).rows[0].int("n")
        }
        return try fixture.ownerConnection().query("SELECT count(*) AS n FROM events WHERE event_type = $1",
                                                   [.text(type)]).rows[0].int("n")
    }

    @Test func happyPathAnswersTheExactShapeWithCodesExpiriesAndLinks() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--return-scheme", "myapp", "--android-package", "com.example.app"])
        let api = try fixture.responder(clock: { Self.now }, publicBaseURL: "https://handoff.example.com/")
        let response = pay(api, key: tenant.key, Self.body())
        #expect(response.status == 200, "\(bodyText(response))")
        let json = jsonObject(response)
        let handoff = try #require(json["handoff"] as? [String: Any])
        let install = try #require(json["install"] as? [String: Any])
        let code = try #require(handoff["code"] as? String)
        let token = try #require(install["token"] as? String)
        #expect(HandoffCode.parse(code) != nil && code.count == 8)
        #expect(InstallToken.parse(token) != nil && token.count == 8)
        #expect(code.allSatisfy { "23456789ABCDEFGHJKLMNPQRSTUVWXYZ".contains($0) })
        let pageURL = try #require(handoff["postPaymentUrl"] as? String)
        #expect(pageURL.hasPrefix("https://handoff.example.com/done/"))
        let pageToken = String(pageURL.dropFirst("https://handoff.example.com/done/".count))
        #expect(pageToken.count == 32 && !pageToken.contains(code))
        #expect(bodyText(response) == #"{"guid":"\#(Self.guidA)","handoff":{"code":"\#(code)","# +
            #""expiresAt":"2027-01-18T08:00:00.250Z","pageToken":"\#(pageToken)","postPaymentUrl":"\#(pageURL)","# +
            #""returnLink":"myapp://handoff?code=\#(code)","trackerUrl":null},"# +
            #""install":{"expiresAt":"2027-02-14T08:00:00.250Z","# +
            #""playStoreUrl":"https://play.google.com/store/apps/details?id=com.example.app&referrer=\#(token)","# +
            #""token":"\#(token)","trackerUrl":null},"paymentId":"pi_1"}"#)

        // Without a return scheme or an Android package the links are null; a lifetime payment (expiresAt null).
        let bare = try fixture.tenant()
        let plain = pay(api, key: bare.key, Self.body(guid: "1f8fad5b-d9cb-469f-a165-70867728950e",
                                                      expiresAt: "null"))
        #expect(plain.status == 200, "\(bodyText(plain))")
        let plainJSON = jsonObject(plain)
        #expect((plainJSON["handoff"] as? [String: Any])?["returnLink"] is NSNull)
        #expect((plainJSON["install"] as? [String: Any])?["playStoreUrl"] is NSNull)
        #expect((plainJSON["install"] as? [String: Any])?["trackerUrl"] is NSNull)
        #expect((plainJSON["handoff"] as? [String: Any])?["trackerUrl"] is NSNull)
        let lifetime = try fixture.ownerConnection().query(
            "SELECT expires_at IS NULL AS lifetime FROM payments WHERE org_id = $1::uuid", [.text(bare.org)])
        #expect(try lifetime.rows[0].string("lifetime") == "t")
    }

    @Test func anUnknownGuidBecomesABuyerOfThisProjectAndTheEmailAttachesUnverified() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now })
        #expect(pay(api, key: tenant.key, Self.body(extra: #","email":"b@example.com","paywallId":"pw_1""#))
            .status == 200)
        let owner = try fixture.ownerConnection()
        let buyer = try owner.query(
            "SELECT org_id::text AS org, project_id::text AS project FROM buyers WHERE guid = $1",
            [.text(Self.guidA)]).rows[0]
        #expect(try buyer.string("org") == tenant.org && buyer.string("project") == tenant.project)
        #expect(try count(fixture, "BuyerCreated", org: tenant.org) == 1)
        #expect(try owner.query("SELECT count(*) AS n FROM buyer_emails WHERE guid = $1 AND NOT verified",
                                [.text(Self.guidA)]).rows[0].int("n") == 1)
        // A known buyer (made by /users) paying with a new e-mail gets it attached, unverified; once only.
        let user = jsonObject(api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                                         body: #"{"externalId":"u1"}"#)))["guid"] as! String
        for paymentId in ["pi_2", "pi_3"] {
            #expect(pay(api, key: tenant.key, Self.body(guid: user, paymentId: paymentId,
                                                        extra: #","email":"u1@example.com""#)).status == 200)
        }
        #expect(try count(fixture, "BuyerEmailAttached", org: tenant.org) == 1)
        #expect(try owner.query("SELECT count(*) AS n FROM buyer_emails WHERE guid = $1 AND NOT verified",
                                [.text(user)]).rows[0].int("n") == 1)
    }

    @Test func aForeignGuidIsRefusedAndNothingIsRecordedButAnotherProjectOfTheOrgMayUseIt() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let a2 = try fixture.admin(["project", "create", "--org", a.org, "--name", "Second"]).json()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now })
        #expect(pay(api, key: a.key, Self.body()).status == 200)
        let before = try fixture.ownerConnection().query("SELECT count(*) AS n FROM events").rows[0].int("n")
        let foreign = pay(api, key: b.key, Self.body(paymentId: "pi_b", extra: #","email":"x@example.com""#))
        #expect(foreign.status == 400)
        #expect(bodyText(foreign) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"field 'guid' names a buyer of another organization"}"#)
        #expect(try fixture.ownerConnection().query("SELECT count(*) AS n FROM events").rows[0].int("n") == before)
        #expect(try count(fixture, "PaymentRecorded", org: b.org) == 0)
        // Org B using org A's paymentId with its own guid is its own payment (idempotency is per org).
        let own = pay(api, key: b.key, Self.body(guid: "2f8fad5b-d9cb-469f-a165-70867728950e", paymentId: "pi_1"))
        #expect(own.status == 200)
        #expect(try count(fixture, "PaymentRecorded", org: b.org) == 1)
        let other = pay(api, key: a2["secretKey"] as! String, Self.body(paymentId: "pi_a2"))
        #expect(other.status == 200, "\(bodyText(other))")
        #expect(try count(fixture, "PaymentRecorded", org: a.org) == 2)
        #expect(try count(fixture, "BuyerCreated", org: a.org) == 1)
    }

    @Test func aRepeatReturnsTheSameAnswerAndAnotherBodyIsAConflict() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--return-scheme", "myapp"])
        let clock = Clock()
        let api = try fixture.responder(clock: { clock.now() })
        let first = pay(api, key: tenant.key, Self.body(extra: #","email":"b@example.com""#))
        #expect(first.status == 200)
        clock.advance(3600)
        // Key order does not make another body; the guid's case does (another buyer).
        let repeatBody = #"{"entitlement":"pro","productId":"com.app.pro_monthly","paymentId":"pi_1","amount":999,"# +
            #""currency":"EUR","expiresAt":"2027-02-15T08:00:00.000Z","email":"b@example.com","# +
            #""guid":"\#(Self.guidA)"}"#
        let again = pay(api, key: tenant.key, repeatBody)
        #expect(bodyText(again) == bodyText(first))
        for changed in [Self.body(amount: "1000", extra: #","email":"b@example.com""#),
                        Self.body(), Self.body(currency: "\"USD\"", extra: #","email":"b@example.com""#),
                        Self.body(expiresAt: "null", extra: #","email":"b@example.com""#),
                        Self.body(guid: Self.guidA.uppercased(), extra: #","email":"b@example.com""#)] {
            let conflict = pay(api, key: tenant.key, changed)
            #expect(conflict.status == 409)
            #expect(bodyText(conflict) == #"{"statusCode":409,"code":"PAYMENT_CONFLICT","# +
                #""message":"payment 'paymentId' was already recorded with a different body"}"#)
        }
        #expect(try count(fixture, "PaymentRecorded") == 1)
        #expect(try count(fixture, "HandoffCodeMinted") == 2)

        // Once the buyer's key is destroyed (crypto-shredding), the codes cannot be re-displayed nor new ones sealed.
        let owner = try fixture.ownerConnection()
        try SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
            .destroy(org: UUID(uuidString: tenant.org)!, subject: Self.guidA, on: owner)
        let erased = #"{"statusCode":409,"code":"PAYMENT_CONFLICT","# +
            #""message":"field 'guid' names a buyer whose personal data was erased"}"#
        #expect(bodyText(pay(api, key: tenant.key, repeatBody)) == erased)
        #expect(bodyText(pay(api, key: tenant.key, Self.body(paymentId: "pi_new"))) == erased)
        #expect(try count(fixture, "PaymentRecorded") == 1)
    }

    @Test func twentyConcurrentRepeatsRecordOnePaymentAndAnswerTheSame() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now }, poolSize: 16)
        let answers = Answers()
        onThreads(20) { _ in
            let response = pay(api, key: tenant.key, Self.body(extra: #","email":"c@example.com""#))
            answers.add(response.status, bodyText(response))
        }
        #expect(answers.statuses == Array(repeating: 200, count: 20))
        #expect(answers.guids.count == 1)
        #expect(try count(fixture, "PaymentRecorded") == 1)
        #expect(try count(fixture, "HandoffCodeMinted") == 2)
        #expect(try count(fixture, "BuyerCreated") == 1)
    }

    @Test func eachBadFieldIsRefusedByNameAndOversizedBodiesWith413() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now })
        func refusal(_ code: String, _ message: String) -> String {
            #"{"statusCode":400,"code":"\#(code)","message":"\#(message)"}"#
        }
        let catalogRule = "must be 1–128 characters of A-Z a-z 0-9 . _ : -"
        let cases: [(String, String)] = [
            (Self.body(guid: "no pe"),
             refusal("VALIDATION_GUID_FORMAT", "field 'guid' must be 1–64 characters from A-Z a-z 0-9 . _ : -")),
            (Self.body(guid: "00000000-0000-0000-0000-000000000000"),
             refusal("VALIDATION_GUID_FORMAT", "field 'guid' must not be an unset device id (only zeros, the max "
                     + "UUID, null, nil or undefined)")),
            (Self.body(paymentId: "pi 1"),
             refusal("VALIDATION_PAYMENT_ID_FORMAT",
                     "field 'paymentId' must be 1–128 characters of A-Z a-z 0-9 . _ : -")),
            (Self.body(amount: "-1"),
             refusal("VALIDATION_AMOUNT_FORMAT", "field 'amount' must be an integer ≥ 0 in minor units")),
            (Self.body(amount: "9.5"), refusal("VALIDATION_FAILED", "field 'amount' must be an integer")),
            (Self.body(amount: "\"9\""), refusal("VALIDATION_FAILED", "field 'amount' must be an integer")),
            (Self.body(currency: "\"eur\""),
             refusal("VALIDATION_CURRENCY_FORMAT", "field 'currency' must be 3 uppercase letters (ISO 4217)")),
            (Self.body(currency: "\"EURO\""),
             refusal("VALIDATION_CURRENCY_FORMAT", "field 'currency' must be 3 uppercase letters (ISO 4217)")),
            (Self.body(expiresAt: "\"2027-02-15\""),
             refusal("VALIDATION_EXPIRES_AT_FORMAT", Self.expiresAtRule)),
            (Self.body(expiresAt: "\"tomorrow\""),
             refusal("VALIDATION_EXPIRES_AT_FORMAT", Self.expiresAtRule)),
            // Offsets are normalized first: this one lands in the year 10000; year 0 is before 1970.
            (Self.body(expiresAt: "\"9999-12-31T23:59:59-23:59\""),
             refusal("VALIDATION_EXPIRES_AT_FORMAT", Self.expiresAtRule)),
            (Self.body(expiresAt: "\"0000-01-01T00:00:00Z\""),
             refusal("VALIDATION_EXPIRES_AT_FORMAT", Self.expiresAtRule)),
            (Self.body(expiresAt: "\"1969-12-31T23:59:59Z\""),
             refusal("VALIDATION_EXPIRES_AT_FORMAT", Self.expiresAtRule)),
            (Self.body(extra: #","email":"nope""#),
             refusal("VALIDATION_EMAIL_FORMAT", "field 'email' must be an e-mail address of at most 254 characters")),
            (Self.body(extra: #","paywallId":"""#),
             refusal("VALIDATION_PAYWALL_ID_FORMAT", "field 'paywallId' \(catalogRule)")),
            (Self.body(extra: #","paymentID":"x""#),
             refusal("VALIDATION_FAILED", "field 'paymentID' is not a field of a payment")),
            (#"{"guid":"\#(Self.guidA)","paymentId":"p","amount":1,"currency":"EUR","productId":"","#
                + #""entitlement":"e","expiresAt":null}"#,
             refusal("VALIDATION_PRODUCT_ID_FORMAT", "field 'productId' \(catalogRule)")),
            (#"{"guid":"\#(Self.guidA)","paymentId":"p","amount":1,"currency":"EUR","productId":"p","#
                + #""entitlement":"a b","expiresAt":null}"#,
             refusal("VALIDATION_ENTITLEMENT_FORMAT", "field 'entitlement' \(catalogRule)")),
            (#"{"guid":"\#(Self.guidA)","paymentId":"p","amount":1,"currency":"EUR","productId":"p","#
                + #""entitlement":"e"}"#,
             refusal("VALIDATION_FAILED", "field 'expiresAt' is required (null for a lifetime entitlement)")),
            (#"{"paymentId":"p"}"#, refusal("VALIDATION_FAILED", "field 'guid' is required")),
            (#"{"guid":"\#(Self.guidA)"}"#, refusal("VALIDATION_FAILED", "field 'paymentId' is required")),
            ("[]", #"{"statusCode":400,"code":"INVALID_JSON","message":"the body must be a JSON object"}"#),
            ("", #"{"statusCode":400,"code":"INVALID_JSON","message":"the body is empty; a JSON object is required"}"#),
        ]
        for (body, expected) in cases {
            let response = pay(api, key: tenant.key, body)
            #expect(response.status == 400, "\(body)")
            #expect(bodyText(response) == expected, "\(body): \(bodyText(response))")
        }
        #expect(pay(api, key: tenant.key, Self.body(expiresAt: "\"2027-02-15T10:00:00.5+02:00\"")).status == 200)
        #expect(api.bodyLimit(for: .post, path: "/s2s/v1/payments") == 4096)
        let tooLarge = api.payloadTooLarge(s2sRequest(.post, "/s2s/v1/payments", key: tenant.key))
        #expect(tooLarge.status == 413)
        #expect(bodyText(tooLarge) == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
            #""message":"the body is larger than the 4096 bytes this endpoint accepts"}"#)
        #expect(pay(api, key: SecretKeyText.fresh(), Self.body()).status == 401)
        #expect(try count(fixture, "PaymentRecorded") == 1)
    }

    @Test func codesAreNeverStoredInClear() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { Self.now })
        let json = jsonObject(pay(api, key: tenant.key, Self.body()))
        let code = try #require((json["handoff"] as? [String: Any])?["code"] as? String)
        let token = try #require((json["install"] as? [String: Any])?["token"] as? String)
        let owner = try fixture.ownerConnection()
        for table in ["events", "payments", "handoff_codes", "buyers", "subject_keys"] {
            let text = try owner.query("SELECT coalesce(string_agg(t::text, ' '), '') AS all FROM \(table) t")
                .rows[0].string("all")
            #expect(!text.contains(code) && !text.contains(token), "\(table)")
        }
        #expect(try owner.query("SELECT count(*) AS n FROM handoff_codes WHERE sealed_code LIKE 'pd1.%'")
            .rows[0].int("n") == 2)
    }

    @Test func aRefundRevokesTheEntitlementOnceAndAnotherOrgsPaymentIs404() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let clock = Clock()
        let api = try fixture.responder(clock: { clock.now() })
        #expect(pay(api, key: a.key, Self.body(paymentId: "GPA.1234-5678")).status == 200)
        let refund = { (key: String, id: String) in
            api.respond(to: s2sRequest(.post, "/s2s/v1/payments/\(id)/refund", key: key))
        }
        // Org B's key with org A's paymentId: 404, nothing recorded.
        let foreign = refund(b.key, "GPA.1234-5678")
        #expect(foreign.status == 404)
        #expect(bodyText(foreign)
            == #"{"statusCode":404,"code":"NOT_FOUND","message":"no payment with this paymentId"}"#)
        #expect(refund(a.key, "pi_unknown").status == 404)
        #expect(refund(a.key, "bad%20id").status == 400)
        let expected = #"{"entitlement":"pro","paymentId":"GPA.1234-5678","refundedAt":"2027-01-15T08:00:00.250Z","# +
            #""status":"refunded"}"#
        let first = refund(a.key, "GPA.1234-5678")
        #expect(bodyText(first) == expected)
        clock.advance(60)
        #expect(bodyText(refund(a.key, "GPA.1234-5678")) == expected)
        #expect(try count(fixture, "PaymentRefunded") == 1)
        let row = try fixture.ownerConnection().query(
            "SELECT refunded_at = '2027-01-15T08:00:00.250Z'::timestamptz AS same FROM payments").rows[0]
        #expect(try row.string("same") == "t")
        #expect(refund(SecretKeyText.fresh(), "GPA.1234-5678").status == 401)
        // Org B's key with org A's guid on payments is VISITOR_ID_FOREIGN_PROJECT (see the foreign-guid test).
        #expect(pay(api, key: b.key, Self.body(paymentId: "pb")).status == 400)
    }

    @Test func withoutIdentitySecretsTheEndpointAnswers503() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(identity: nil)
        #expect(pay(api, key: tenant.key, Self.body()).status == 503)
        #expect(try count(fixture, "PaymentRecorded") == 0)
    }
}
