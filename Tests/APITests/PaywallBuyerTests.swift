import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `GET /public/paywall/buyer` (issue 4, "Who is the buyer on the paywall"): the rule, passes, tenants, limits.
@Suite struct PaywallBuyerTests {
    private static let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// An org with a paywall project, a buyer made through `POST /s2s/v1/users` at `issuedAt`, and its pass.
    private struct Paywall {
        var tenant: (org: String, project: String, key: String)
        var guid: String
        var pass: String
    }

    private func paywall(_ fixture: TenantFixture, externalId: String = "u1",
                         identity: IdentitySecrets = TestIdentity.secrets()) throws -> Paywall {
        let tenant = try fixture.tenant(["--paywall-url", "https://pay.example.com/"])
        let api = try fixture.responder(identity: identity, clock: { Self.issuedAt })
        let created = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                                 body: #"{"externalId":"\#(externalId)"}"#))
        let url = try #require(jsonObject(created)["paywallUrl"] as? String)
        let pass = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "pass" }?.value)
        return Paywall(tenant: tenant, guid: jsonObject(created)["guid"] as! String, pass: pass)
    }

    private func ask(_ api: APIResponder, _ query: [String: String], ip: String = "198.51.100.9") -> Response {
        api.respond(to: publicRequest("/public/paywall/buyer", query: query, clientIP: ip))
    }

    private func found(_ guid: String, _ source: String) -> String {
        #"{"success":true,"data":{"guid":"\#(guid)","source":"\#(source)"}}"#
    }

    private let notFoundBody = #"{"statusCode":404,"message":"no buyer could be identified"}"#

    @Test func eachCaseOfTheRule() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let api = try fixture.responder(clock: { Self.issuedAt.addingTimeInterval(3600) })
        let device = UUID().uuidString
        let cases: [([String: String], Int, String)] = [
            // origin=app with an id: the id, even when a pass is present (an SDK device id never seen is taken).
            (["origin": "app", "id": device], 200, found(device, "id")),
            (["origin": "app", "id": device, "pass": p.pass], 200, found(device, "id")),
            (["origin": "app", "id": p.guid], 200, found(p.guid, "id")),
            // A pass without an id: its guid after verification.
            (["pass": p.pass], 200, found(p.guid, "pass")),
            (["origin": "app", "pass": p.pass], 200, found(p.guid, "pass")),
            (["origin": "app", "id": "", "pass": p.pass], 200, found(p.guid, "pass")),
            // An id without origin=app is ignored.
            (["id": device, "pass": p.pass], 200, found(p.guid, "pass")),
            (["origin": "web", "id": device, "pass": p.pass], 200, found(p.guid, "pass")),
            (["origin": "App", "id": device, "pass": p.pass], 200, found(p.guid, "pass")),
            (["id": device], 404, notFoundBody),
            (["origin": "web", "id": device], 404, notFoundBody),
            // Nothing usable.
            ([:], 404, notFoundBody),
            (["origin": "app"], 404, notFoundBody),
            (["pass": ""], 404, notFoundBody),
            (["pass": "v1.garbage"], 404, notFoundBody),
            // The app named a buyer, wrongly: refused rather than falling back to the pass.
            (["origin": "app", "id": "not a guid", "pass": p.pass], 400,
             #"{"statusCode":400,"code":"VALIDATION_GUID_FORMAT","# +
                #""message":"field 'id' must be 1–64 characters from A-Z a-z 0-9 . _ : -"}"#),
        ]
        for (query, status, body) in cases {
            let response = ask(api, query.merging(["projectId": p.tenant.project]) { $1 })
            #expect(response.status == status, "\(query)")
            #expect(bodyText(response) == body, "\(query): \(bodyText(response))")
            #expect(response.headers["Content-Type"] == "application/json")
        }
    }

    @Test func unknownOrMalformedProjectIdAnswers404() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let api = try fixture.responder()
        let body = #"{"statusCode":404,"message":"no project has this projectId"}"#
        for project in [UUID().uuidString.lowercased(), "nope", ""] {
            let response = ask(api, ["projectId": project, "pass": p.pass])
            #expect(response.status == 404 && bodyText(response) == body, "\(project)")
        }
        #expect(bodyText(ask(api, ["pass": p.pass])) == body)
    }

    @Test func aTamperedPassAnswers404() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let api = try fixture.responder(clock: { Self.issuedAt })
        var fields = p.pass.split(separator: ".").map(String.init)
        // Another project id in the payload, the signature kept.
        var payload = Array(fields[1])
        payload[3] = payload[3] == "A" ? "B" : "A"
        fields[1] = String(payload)
        let forged = fields.joined(separator: ".")
        let resigned = p.pass.dropLast(2) + (p.pass.hasSuffix("AA") ? "AB" : "AA")
        for pass in [forged, String(resigned), p.pass.replacingOccurrences(of: ".old1.", with: ".other.")] {
            let response = ask(api, ["projectId": p.tenant.project, "pass": pass])
            #expect(response.status == 404 && bodyText(response) == notFoundBody, "\(pass)")
        }
        #expect(ask(api, ["projectId": p.tenant.project, "pass": p.pass]).status == 200)
    }

    @Test func aPassExpiresAfter24HoursByTheInjectedClock() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let lastValid = try fixture.responder(clock: { Self.issuedAt.addingTimeInterval(86_399) })
        #expect(bodyText(ask(lastValid, ["projectId": p.tenant.project, "pass": p.pass])) == found(p.guid, "pass"))
        let expired = try fixture.responder(clock: { Self.issuedAt.addingTimeInterval(86_400) })
        let response = ask(expired, ["projectId": p.tenant.project, "pass": p.pass])
        #expect(response.status == 404 && bodyText(response) == notFoundBody)
    }

    @Test func aPassSignedByThePreviousKeyStillVerifiesAfterRotationAndNotOnceTheKeyIsDropped() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        #expect(p.pass.contains(".old1."))
        let rotated = try fixture.responder(
            identity: TestIdentity.secrets(passKeys: [("new2", TestIdentity.newPassKey),
                                                       ("old1", TestIdentity.oldPassKey)]),
            clock: { Self.issuedAt })
        #expect(bodyText(ask(rotated, ["projectId": p.tenant.project, "pass": p.pass])) == found(p.guid, "pass"))
        // New passes are signed by the new current key.
        let fresh = rotated.respond(to: s2sRequest(.post, "/s2s/v1/users", key: p.tenant.key,
                                                   body: #"{"externalId":"u1"}"#))
        #expect((jsonObject(fresh)["paywallUrl"] as? String)?.contains(".new2.") == true)
        let dropped = try fixture.responder(
            identity: TestIdentity.secrets(passKeys: [("new2", TestIdentity.newPassKey)]), clock: { Self.issuedAt })
        #expect(ask(dropped, ["projectId": p.tenant.project, "pass": p.pass]).status == 404)
    }

    @Test func aGuidOfAnotherOrganizationAnswers400ForAnIdAndForAPass() throws {
        let fixture = try TenantFixture.migrated()
        let a = try paywall(fixture)
        let b = try paywall(fixture)
        let a2 = try fixture.admin(["project", "create", "--org", a.tenant.org, "--name", "Second"]).json()
        let api = try fixture.responder(clock: { Self.issuedAt })
        let foreign = #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"this buyer belongs to another organization"}"#
        for query in [["origin": "app", "id": b.guid], ["pass": b.pass],
                      ["origin": "app", "id": b.guid, "pass": a.pass]] {
            let response = ask(api, query.merging(["projectId": a.tenant.project]) { $1 })
            #expect(response.status == 400 && bodyText(response) == foreign, "\(query)")
        }
        // Any project of the same organization may use the org's buyers and passes.
        let sameOrg = a2["projectId"] as! String
        #expect(bodyText(ask(api, ["projectId": sameOrg, "pass": a.pass])) == found(a.guid, "pass"))
        #expect(bodyText(ask(api, ["projectId": sameOrg, "origin": "app", "id": a.guid])) == found(a.guid, "id"))
    }

    @Test func overThirtyPerMinuteFromOneIPAnswers429AndAnotherIPIsUnaffected() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let api = try fixture.responder(clock: { Self.issuedAt })
        let query = ["projectId": p.tenant.project, "pass": p.pass]
        let statuses = (0..<32).map { _ in ask(api, query, ip: "192.0.2.50").status }
        #expect(statuses == Array(repeating: 200, count: 30) + [429, 429])
        let limited = ask(api, query, ip: "192.0.2.50")
        // The window's time left, rounded up: 2 s, or 1 s when the 33 requests took more than a second (a loaded
        // machine); the body names the same number as the header.
        let retryAfter = limited.headers["Retry-After"] ?? ""
        #expect(["1", "2"].contains(retryAfter), "\(retryAfter)")
        #expect(bodyText(limited) == #"{"statusCode":429,"code":"RATE_LIMITED","#
            + #""message":"too many requests; retry after \#(retryAfter) s"}"#)
        #expect(ask(api, query, ip: "192.0.2.51").status == 200)
        #expect(Environment.defaultPaywallBuyerLimit == RateLimit.perWindow(
            name: "paywall-buyer", count: 30, seconds: 60, onFailure: .closed))
    }

    @Test func withoutIdentitySecretsThePaywallBuyerAnswers503() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let api = try fixture.responder(identity: nil)
        let response = ask(api, ["projectId": p.tenant.project, "pass": p.pass])
        #expect(response.status == 503 && response.headers["Retry-After"] == "60")
        #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"buyer identity is not configured on this server"}"#)
    }

    @Test func whileRedisIsStoppedThePaywallBuyerFailsClosedWith503() throws {
        let fixture = try TenantFixture.migrated()
        let p = try paywall(fixture)
        let redis = try ScratchRedis()
        let api = try fixture.responder(redisURL: redis.url, clock: { Self.issuedAt })
        let query = ["projectId": p.tenant.project, "pass": p.pass]
        #expect(ask(api, query).status == 200)
        redis.pause()
        defer { redis.resume() }
        let response = ask(api, query)
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "5")
        #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"rate limiting is unavailable; retry later"}"#)
    }
}
