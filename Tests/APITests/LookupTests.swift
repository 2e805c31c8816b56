import API
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// The lookups of issue 4: `GET /s2s/v1/users/{guid}`, its entitlements, and `GET /public/entitlements`.
@Suite struct LookupTests {
    static let guidA = PaymentTests.guidA
    static let unknown = "2f8fad5b-d9cb-469f-a165-70867728950e"

    private func get(_ api: APIResponder, _ path: String, key: String?) -> Response {
        api.respond(to: s2sRequest(.get, path, key: key))
    }

    private func createdAt(_ fixture: TenantFixture, _ guid: String) throws -> String {
        try fixture.ownerConnection().query("""
            SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t
            FROM buyers WHERE guid = $1
            """, [.text(guid)]).rows[0].string("t")
    }

    @Test func aUserAnswersItsHomeProjectExternalIdVerificationAndCreation() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        let created = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: a.key,
                                                 body: #"{"externalId":"u1","email":"a@example.com"}"#))
        let guid = try #require(jsonObject(created)["guid"] as? String)
        let when = try createdAt(fixture, guid)
        let shown = get(api, "/s2s/v1/users/\(guid)", key: a.key)
        #expect(shown.status == 200)
        #expect(bodyText(shown) == #"{"createdAt":"\#(when)","emailVerified":false,"externalId":"u1","# +
            #""guid":"\#(guid)","projectId":"\#(a.project)"}"#)
        try fixture.ownerConnection().execute("UPDATE buyer_emails SET verified = true")
        #expect((jsonObject(get(api, "/s2s/v1/users/\(guid)", key: a.key))["emailVerified"] as? Bool) == true)
        // Compared exactly: the minted guid's upper-case spelling is another id, never seen.
        #expect(get(api, "/s2s/v1/users/\(guid.uppercased())", key: a.key).status == 404)

        // A buyer first seen through a payment has no externalId; its home project is the paying key's.
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: a.key, body: PaymentTests.body()))
                .status == 200)
        #expect(bodyText(get(api, "/s2s/v1/users/\(Self.guidA)", key: a.key)) ==
                #"{"createdAt":"\#(try createdAt(fixture, Self.guidA))","emailVerified":false,"externalId":null,"# +
                #""guid":"\#(Self.guidA)","projectId":"\#(a.project)"}"#)

        let unknown = get(api, "/s2s/v1/users/\(Self.unknown)", key: a.key)
        #expect(unknown.status == 404)
        #expect(bodyText(unknown) == #"{"statusCode":404,"code":"NOT_FOUND","message":"no buyer with this guid"}"#)
        let foreign = get(api, "/s2s/v1/users/\(guid)", key: b.key)
        #expect(foreign.status == 400)
        #expect(bodyText(foreign) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"'guid' names a buyer of another organization"}"#)
        let malformed = get(api, "/s2s/v1/users/not a guid", key: a.key)
        #expect(malformed.status == 400)
        #expect(jsonObject(malformed)["code"] as? String == "VALIDATION_GUID_FORMAT")
        #expect((jsonObject(malformed)["message"] as? String)?.contains("'guid'") == true)
        #expect(get(api, "/s2s/v1/users/00000000-0000-0000-0000-000000000000", key: a.key).status == 400)
        #expect(get(api, "/s2s/v1/users/\(guid)", key: nil).status == 401)
        #expect(get(api, "/s2s/v1/users/\(guid)", key: SecretKeyText.fresh()).status == 401)
    }

    /// Pays `pi_1` (expires 2027-02-15T08:00:00Z) and `pi_2` (lifetime, then refunded) for guidA with `key`.
    private func purchases(_ api: APIResponder, key: String) {
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: PaymentTests.body()))
                .status == 200)
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key,
                                           body: PaymentTests.body(paymentId: "pi_2", expiresAt: "null")))
                .status == 200)
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments/pi_2/refund", key: key)).status == 200)
    }

    static func entitlements(_ first: String, active: Bool) -> String {
        #"{"active":\#(active),"entitlements":[{"entitlement":"pro","expiresAt":"2027-02-15T08:00:00.000Z","# +
            #""paymentId":"pi_1","productId":"com.app.pro_monthly","status":"\#(first)"},"# +
            #"{"entitlement":"pro","expiresAt":null,"paymentId":"pi_2","productId":"com.app.pro_monthly","# +
            #""status":"refunded"}],"guid":"\#(guidA)"}"#
    }

    @Test func entitlementsAreJudgedAtReadTimeByTheInjectedClock() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let clock = Clock()
        let api = try fixture.responder(clock: { clock.now() })
        purchases(api, key: a.key)
        let path = "/s2s/v1/users/\(Self.guidA)/entitlements"
        let before = get(api, path, key: a.key)
        #expect(before.status == 200)
        #expect(bodyText(before) == Self.entitlements("active", active: true))
        // 2027-01-15T08:00:00.25Z + 31 days - 0.25 s = the expiry instant: expired from then on.
        clock.advance(31 * 86_400 - 0.25 - 0.001)
        #expect(bodyText(get(api, path, key: a.key)) == Self.entitlements("active", active: true))
        clock.advance(0.001)
        #expect(bodyText(get(api, path, key: a.key)) == Self.entitlements("expired", active: false))

        #expect(bodyText(get(api, "/s2s/v1/users/\(Self.unknown)/entitlements", key: a.key)) ==
                #"{"active":false,"entitlements":[],"guid":"\#(Self.unknown)"}"#)
        let foreign = get(api, path, key: b.key)
        #expect(foreign.status == 400 && jsonObject(foreign)["code"] as? String == "VISITOR_ID_FOREIGN_PROJECT")
        let malformed = get(api, "/s2s/v1/users/x%y/entitlements", key: a.key)
        #expect(malformed.status == 400 && (jsonObject(malformed)["message"] as? String)?.contains("'guid'") == true)
        #expect(get(api, path, key: nil).status == 401)
    }

    @Test func aStoredExpiryThatDoesNotReadBackIsJudgedExpiredNeverLifetime() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now })
        #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: a.key, body: PaymentTests.body()))
                .status == 200)
        // A row written before the 1970–9999 rule (or by hand): year 10000 does not read back as an RFC 3339 instant.
        try fixture.ownerConnection().execute(
            "UPDATE payments SET expires_at = '10000-01-01T00:00:00Z' WHERE payment_id = 'pi_1'")
        let answer = jsonObject(get(api, "/s2s/v1/users/\(Self.guidA)/entitlements", key: a.key))
        #expect(answer["active"] as? Bool == false)
        #expect((answer["entitlements"] as? [[String: Any]])?.first?["status"] as? String == "expired")
    }

    private func ask(_ api: APIResponder, _ query: [String: String], ip: String = "198.51.100.9") -> Response {
        api.respond(to: publicRequest("/public/entitlements", query: query, clientIP: ip))
    }

    @Test func publicEntitlementsAreWrappedAndRefuseForeignGuidsAndUnknownProjects() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let clock = Clock()
        let api = try fixture.responder(clock: { clock.now() })
        purchases(api, key: a.key)
        let answer = ask(api, ["projectId": a.project, "guid": Self.guidA])
        #expect(answer.status == 200)
        #expect(bodyText(answer) == #"{"success":true,"data":\#(Self.entitlements("active", active: true))}"#)
        clock.advance(40 * 86_400)
        #expect(bodyText(ask(api, ["projectId": a.project, "guid": Self.guidA])) ==
                #"{"success":true,"data":\#(Self.entitlements("expired", active: false))}"#)
        #expect(bodyText(ask(api, ["projectId": a.project, "guid": Self.unknown])) ==
                #"{"success":true,"data":{"active":false,"entitlements":[],"guid":"\#(Self.unknown)"}}"#)

        let foreign = ask(api, ["projectId": b.project, "guid": Self.guidA])
        #expect(foreign.status == 400)
        #expect(bodyText(foreign) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"'guid' names a buyer of another organization"}"#)
        let unknownProject = ask(api, ["projectId": "3f8fad5b-d9cb-469f-a165-70867728950e", "guid": Self.guidA])
        #expect(unknownProject.status == 404)
        #expect(bodyText(unknownProject) == #"{"statusCode":404,"message":"no project has this projectId"}"#)
        #expect(ask(api, ["projectId": "nope", "guid": Self.guidA]).status == 404)
        #expect(ask(api, ["guid": Self.guidA]).status == 404)
        let missing = ask(api, ["projectId": a.project])
        #expect(missing.status == 400 && jsonObject(missing)["code"] as? String == "VALIDATION_GUID_FORMAT")
        // An unknown project is named before a bad guid.
        #expect(ask(api, ["projectId": "3f8fad5b-d9cb-469f-a165-70867728950e"]).status == 404)
        #expect(ask(api, ["projectId": "3f8fad5b-d9cb-469f-a165-70867728950e", "guid": "no guid!"]).status == 404)
    }

    @Test func overSixtyPerMinuteFromOneIPAnswers429() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder()
        let query = ["projectId": a.project, "guid": Self.unknown]
        let statuses = (0..<62).map { _ in ask(api, query, ip: "192.0.2.60").status }
        #expect(statuses == Array(repeating: 200, count: 60) + [429, 429])
        let limited = ask(api, query, ip: "192.0.2.60")
        #expect(limited.headers["Retry-After"] == "1")
        #expect(jsonObject(limited)["code"] as? String == "RATE_LIMITED")
        #expect(ask(api, query, ip: "192.0.2.61").status == 200)
        #expect(Environment.defaultPublicEntitlementsLimit == RateLimit.perWindow(
            name: "public-entitlements", count: 60, seconds: 60, onFailure: .closed))
    }

    @Test func whileRedisIsStoppedPublicEntitlementsFailClosedWith503() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let redis = try ScratchRedis()
        let api = try fixture.responder(redisURL: redis.url)
        let query = ["projectId": a.project, "guid": Self.unknown]
        #expect(ask(api, query).status == 200)
        redis.pause()
        defer { redis.resume() }
        let response = ask(api, query)
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] != nil)
        #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"rate limiting is unavailable; retry later"}"#)
        // S2S lookups fail open meanwhile.
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(Self.unknown)/entitlements", key: a.key))
                .status == 200)
    }

    @Test func withoutIdentitySecretsTheLookupsAnswer503() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let api = try fixture.responder(identity: nil)
        for path in ["/s2s/v1/users/\(Self.unknown)", "/s2s/v1/users/\(Self.unknown)/entitlements", "/s2s/v1/events"] {
            let response = get(api, path, key: a.key)
            #expect(response.status == 503 && response.headers["Retry-After"] == "60", "\(path)")
        }
        #expect(ask(api, ["projectId": a.project, "guid": Self.unknown]).status == 503)
    }
}
