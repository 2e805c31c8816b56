import API
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// Opaque buyer ids (issue 12 §7): payments and entitlements take any 1–64 characters of `A–Z a–z 0–9 . _ : -`,
/// compare them exactly and answer them exactly as given, within the organization they belong to.
@Suite struct OpaqueGuidTests {
    /// The seed's example, a 16-hex Android `ANDROID_ID`, an iOS `identifierForVendor` (upper-case UUID).
    static let deviceIDs = ["abc123def456", "9f3c6a2b1d4e5f60", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"]
    static let rule = "must be 1–64 characters from A-Z a-z 0-9 . _ : -"

    private func pay(_ api: APIResponder, key: String, guid: String, paymentId: String = "pi_1",
                     extra: String = "") -> Response {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key,
                                   body: PaymentTests.body(guid: guid, paymentId: paymentId, extra: extra)))
    }

    private func entitlements(_ api: APIResponder, project: String, guid: String) -> Response {
        api.respond(to: publicRequest("/public/entitlements", query: ["projectId": project, "guid": guid],
                                      clientIP: "198.51.100.121"))
    }

    private func get(_ api: APIResponder, _ path: String, key: String) -> Response {
        api.respond(to: s2sRequest(.get, path, key: key))
    }

    /// The entitlements answer of one active `pro` payment `paymentId` for `guid`.
    static func active(_ guid: String, paymentId: String = "pi_1") -> String {
        #"{"active":true,"entitlements":[{"entitlement":"pro","expiresAt":"2027-02-15T08:00:00.000Z","# +
            #""paymentId":"\#(paymentId)","productId":"com.app.pro_monthly","status":"active"}],"guid":"\#(guid)"}"#
    }

    static func none(_ guid: String) -> String { #"{"active":false,"entitlements":[],"guid":"\#(guid)"}"# }

    static func foreign(_ message: String = "'guid' names a buyer of another organization") -> String {
        #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","message":"\#(message)"}"#
    }

    private func count(_ fixture: TenantFixture, _ sql: String, _ parameters: [PostgresValue]) throws -> Int {
        try fixture.ownerConnection().query(sql, parameters).rows[0].int("n")
    }

    @Test(arguments: deviceIDs)
    func aPaymentForADeviceIDReadsBackExactlyAsGiven(guid: String) throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let paid = pay(api, key: tenant.key, guid: guid)
        #expect(paid.status == 200, "\(bodyText(paid))")
        #expect(jsonObject(paid)["guid"] as? String == guid)

        let shown = entitlements(api, project: tenant.project, guid: guid)
        #expect(shown.status == 200)
        #expect(bodyText(shown) == #"{"success":true,"data":\#(Self.active(guid))}"#)
        #expect(bodyText(get(api, "/s2s/v1/users/\(guid)/entitlements", key: tenant.key)) == Self.active(guid))
        #expect(jsonObject(get(api, "/s2s/v1/users/\(guid)", key: tenant.key))["guid"] as? String == guid)
        // Stored as given: the buyer row, the payment, both codes, the event and the buyer's stream.
        let owner = try fixture.ownerConnection()
        #expect(try owner.query("SELECT guid FROM buyers WHERE org_id = $1::uuid", [.text(tenant.org)]).rows
            .map { try $0.string("guid") } == [guid])
        #expect(try count(fixture, "SELECT count(*) AS n FROM payments WHERE guid = $1", [.text(guid)]) == 1)
        #expect(try count(fixture, "SELECT count(*) AS n FROM handoff_codes WHERE guid = $1", [.text(guid)]) == 2)
        #expect(try count(fixture, """
            SELECT count(*) AS n FROM events
            WHERE org_id = $1::uuid AND event_type = 'BuyerCreated' AND stream_id = $2 AND data->>'guid' = $3
            """, [.text(tenant.org), .text("buyer-" + guid), .text(guid)]) == 1)
        // Another spelling of the same letters is another, unknown buyer.
        for other in [guid.lowercased(), guid.uppercased()] where other != guid {
            #expect(bodyText(entitlements(api, project: tenant.project, guid: other))
                == #"{"success":true,"data":\#(Self.none(other))}"#)
        }
    }

    @Test func abcAndABCAreTwoBuyers() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        #expect(pay(api, key: tenant.key, guid: "ABC").status == 200)
        #expect(bodyText(get(api, "/s2s/v1/users/abc/entitlements", key: tenant.key)) == Self.none("abc"))
        #expect(get(api, "/s2s/v1/users/abc", key: tenant.key).status == 404)

        #expect(pay(api, key: tenant.key, guid: "abc", paymentId: "pi_2").status == 200)
        #expect(bodyText(get(api, "/s2s/v1/users/ABC/entitlements", key: tenant.key)) == Self.active("ABC"))
        #expect(bodyText(get(api, "/s2s/v1/users/abc/entitlements", key: tenant.key))
            == Self.active("abc", paymentId: "pi_2"))
        #expect(try count(fixture, "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
                          [.text(tenant.org), .text("BuyerCreated")]) == 2)
        // A payment belongs to one buyer: the same paymentId for the other spelling is another body.
        let conflict = pay(api, key: tenant.key, guid: "abc")
        #expect(conflict.status == 409 && jsonObject(conflict)["code"] as? String == "PAYMENT_CONFLICT")

        // Each has its own personal-data key: erasing `abc` leaves `ABC`'s sealed codes readable.
        try SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
            .destroy(org: try #require(UUID(uuidString: tenant.org)), subject: "abc", on: fixture.ownerConnection())
        #expect(pay(api, key: tenant.key, guid: "ABC").status == 200)
        let erased = pay(api, key: tenant.key, guid: "abc", paymentId: "pi_2")
        #expect(bodyText(erased) == #"{"statusCode":409,"code":"PAYMENT_CONFLICT","# +
            #""message":"field 'guid' names a buyer whose personal data was erased"}"#)
    }

    @Test func orgBCannotSeeOrUseOrgAsOpaqueGuid() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let guid = "abc123def456"
        #expect(pay(api, key: a.key, guid: guid, extra: #","email":"a@example.com""#).status == 200)
        let events = try count(fixture, "SELECT count(*) AS n FROM events", [])

        #expect(bodyText(entitlements(api, project: b.project, guid: guid)) == Self.foreign())
        #expect(bodyText(get(api, "/s2s/v1/users/\(guid)", key: b.key)) == Self.foreign())
        #expect(bodyText(get(api, "/s2s/v1/users/\(guid)/entitlements", key: b.key)) == Self.foreign())
        #expect(bodyText(pay(api, key: b.key, guid: guid, paymentId: "pi_b"))
            == Self.foreign("field 'guid' names a buyer of another organization"))
        let paywall = api.respond(to: publicRequest("/public/paywall/buyer", query: [
            "projectId": b.project, "origin": "app", "id": guid,
        ], clientIP: "198.51.100.122"))
        #expect(bodyText(paywall) == Self.foreign("this buyer belongs to another organization"))
        #expect(try count(fixture, "SELECT count(*) AS n FROM events", []) == events)

        // B's own upper-case spelling is B's own buyer and shows nothing of A's.
        let upper = guid.uppercased()
        #expect(pay(api, key: b.key, guid: upper, paymentId: "pi_b").status == 200)
        #expect(bodyText(get(api, "/s2s/v1/users/\(upper)/entitlements", key: b.key))
            == Self.active(upper, paymentId: "pi_b"))
        #expect(bodyText(get(api, "/s2s/v1/users/\(upper)", key: a.key)) == Self.foreign())
        #expect(bodyText(get(api, "/s2s/v1/users/\(guid)/entitlements", key: a.key)) == Self.active(guid))
    }

    @Test func aMalformedGuidIsRefusedNamingTheFieldAndTheRuleOnEveryRoute() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let events = try count(fixture, "SELECT count(*) AS n FROM events", [])
        func refusal(_ field: String, _ rule: String = Self.rule) -> String {
            #"{"statusCode":400,"code":"VALIDATION_GUID_FORMAT","message":"field '\#(field)' \#(rule)"}"#
        }
        for bad in ["", "a b", "a/b", "é", String(repeating: "a", count: 65), "a+b"] {
            #expect(bodyText(pay(api, key: tenant.key, guid: bad)) == refusal("guid"), "\(bad)")
            #expect(bodyText(entitlements(api, project: tenant.project, guid: bad)) == refusal("guid"), "\(bad)")
            // An empty `id` falls back to the pass (none here: 404), so only a non-empty one is refused.
            if !bad.isEmpty {
                let paywall = api.respond(to: publicRequest("/public/paywall/buyer", query: [
                    "projectId": tenant.project, "origin": "app", "id": bad,
                ], clientIP: "198.51.100.123"))
                #expect(bodyText(paywall) == refusal("id"), "\(bad)")
            }
            // A path segment is never empty and never holds a `/`: those requests match no route.
            guard !bad.isEmpty, !bad.contains("/") else { continue }
            #expect(bodyText(get(api, "/s2s/v1/users/\(bad)/entitlements", key: tenant.key)) == refusal("guid"))
            #expect(bodyText(get(api, "/s2s/v1/users/\(bad)", key: tenant.key)) == refusal("guid"))
        }
        let unset = "must not be an unset device id (only zeros, the max UUID, null, nil or undefined)"
        for placeholder in ["00000000-0000-0000-0000-000000000000", "0000000000000000", "null", "undefined"] {
            #expect(bodyText(pay(api, key: tenant.key, guid: placeholder)) == refusal("guid", unset))
        }
        #expect(try count(fixture, "SELECT count(*) AS n FROM events", []) == events)
    }
}
