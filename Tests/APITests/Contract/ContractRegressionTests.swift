import API
import Foundation
import HTTPServer
import Testing

/// Where making `/openapi.json` exact changed the server (issue 13): each answer a client now gets.
@Suite struct ContractRegressionTests {
    private func pay(_ api: APIResponder, key: String, expiresAt: String, paymentId: String) -> Response {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: PaymentTests.body(
            paymentId: paymentId, expiresAt: "\"\(expiresAt)\"")))
    }

    private func entitlementExpiry(_ api: APIResponder, key: String) -> [String] {
        let json = jsonObject(api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(PaymentTests.guidA)/entitlements",
                                                         key: key)))
        return (json["entitlements"] as? [[String: Any]] ?? []).compactMap { $0["expiresAt"] as? String }
    }

    /// Foundation's ISO 8601 parser took these (rolling 2023-02-29 over to March 1, reading `.1234567891234` as
    /// `.001`, taking 24:00 and `+0100`); the RFC 3339 rule refuses them, and keeps what it takes to the millisecond.
    @Test func expiresAtIsARealRFC3339InstantOrA400() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        for (index, text) in ["2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2024-01-01T24:00:00Z",
                              "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00+24:00", "2024-1-01T00:00:00Z",
                              "2027-01-01T00:00:00.1234567891234Z", "1970-01-01T12:00:00+01:00"].enumerated() {
            let response = pay(api, key: tenant.key, expiresAt: text, paymentId: "pi_bad_\(index)")
            #expect(response.status == 400, "\(text)")
            #expect(bodyText(response) == #"{"statusCode":400,"code":"VALIDATION_EXPIRES_AT_FORMAT","message":"# +
                #""\#(PaymentTests.expiresAtRule)"}"#, "\(text)")
        }
        #expect(pay(api, key: tenant.key, expiresAt: "2027-01-01T00:00:00.123456789Z", paymentId: "pi_1").status
            == 200)
        #expect(pay(api, key: tenant.key, expiresAt: "2028-02-29t05:30:00.5+05:30", paymentId: "pi_2").status == 200)
        #expect(entitlementExpiry(api, key: tenant.key) == ["2027-01-01T00:00:00.123Z", "2028-02-29T00:00:00.500Z"])
    }

    /// `tracker` and `trackerLink` change together: what a PATCH does no longer depends on what is stored.
    @Test func trackerAndItsLinkChangeTogether() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--tracker", "appsflyer", "--tracker-link", "https://a.onelink.me/x"])
        let api = try fixture.responder()
        let patch = { (body: String) in
            api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: body))
        }
        let alone = patch(#"{"trackerLink":"https://a.onelink.me/y"}"#)
        #expect(alone.status == 400)
        #expect(bodyText(alone) == #"{"statusCode":400,"code":"VALIDATION_TRACKER_LINK_FORMAT","# +
            #""message":"field 'trackerLink' must be sent together with field 'tracker'"}"#)
        let cleared = patch(#"{"trackerLink":null}"#)
        #expect(cleared.status == 400 && bodyText(cleared).contains("together with field 'tracker'"))
        let withoutLink = patch(#"{"tracker":"adjust"}"#)
        #expect(withoutLink.status == 400)
        #expect(bodyText(withoutLink) == #"{"statusCode":400,"code":"VALIDATION_TRACKER_LINK_FORMAT","# +
            #""message":"field 'trackerLink' must be given when the tracker is adjust"}"#)
        // Nothing changed; the pair together and `none` alone are taken.
        #expect(jsonObject(patch("{}"))["trackerLink"] as? String == "https://a.onelink.me/x")
        #expect(patch(#"{"tracker":"appsflyer","trackerLink":"https://a.onelink.me/y"}"#).status == 200)
        let none = patch(#"{"tracker":"none"}"#)
        #expect(none.status == 200 && jsonObject(none)["trackerLink"] is NSNull)
    }

    /// The longest bodies the document allows fit the route's limit even with every character `\u`-escaped.
    @Test func theLongestValidUserBodyIsTakenNot413() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try fixture.responder()
        let emoji = #"\ud83d\ude00"#
        let body = #"{"externalId": ""# + String(repeating: emoji, count: 256) + #"", "email": ""#
            + String(repeating: emoji, count: 64) + "@" + String(repeating: emoji, count: 186) + #".io"}"#
        #expect(body.utf8.count > 6000)
        #expect(api.bodyLimit(for: .post, path: "/s2s/v1/users") >= body.utf8.count)
        let response = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key, body: body))
        #expect(response.status == 200, "\(bodyText(response))")
    }

    @Test func aFingerprintTokenIsThePageTokensShape() throws {
        let fixture = try TenantFixture.migrated()
        let api = try fixture.responder()
        let request = { (token: String) in
            api.respond(to: Request(method: .post, path: "/public/handoff/fingerprint", query: [:],
                                    headers: Headers([]), body: Array(#"{"token":"\#(token)","screen":"1x2"}"#.utf8),
                                    clientIP: "198.51.100.77", remoteAddress: "198.51.100.77"))
        }
        let malformed = request("not-a-token")
        #expect(malformed.status == 400)
        #expect(bodyText(malformed) == #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
            #""message":"field 'token' must be the page token of the post-payment URL"}"#)
        let unknown = request(String(repeating: "A", count: 32))
        #expect(unknown.status == 404)
        #expect(bodyText(unknown) == #"{"statusCode":404,"message":"no page has this token"}"#)
    }
}
