import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `/s2s/v1/proxy-keys` (issue 21): an organization's proxy keys over S2S — issued (shown once, as the CLI does),
/// listed without the key, revoked (the key then resolves nothing and vouches for no forwarded address); refusals
/// name the field; another organization's key is 404.
@Suite struct ProxyKeyRouteTests {
    private typealias F = GoLinkFixture

    private func follow(_ fixture: F, _ ref: String, key: String) -> Response {
        fixture.api.respond(to: Request(method: .get, path: "/v1/go/" + ref,
                                        headers: Headers([("User-Agent", F.desktopAgent),
                                                          ("X-Handoff-Proxy-Key", key)]),
                                        clientIP: "198.51.100.91", remoteAddress: "198.51.100.91"))
    }

    @Test func aKeyIsIssuedListedWithoutItselfAndRevoked() throws {
        let fixture = try F.migrated()
        let tenant = try fixture.tenant()
        _ = try fixture.link(key: tenant.key, #"{"fallbackUrl":"https://a.example.com/","code":"spring"}"#)
        let created = fixture.send(.post, "/s2s/v1/proxy-keys", key: tenant.key,
                                   body: #"{"domains":["Links.Example.com","go.example.com","links.example.com"]}"#)
        #expect(created.status == 201, "\(bodyText(created))")
        let issued = jsonObject(created)
        let key = try #require(issued["proxyKey"] as? String)
        let id = try #require(issued["proxyKeyId"] as? String)
        #expect(key.hasPrefix("px_") && key.count == 35)
        #expect(issued["header"] as? String == "X-Handoff-Proxy-Key")
        #expect(issued["domains"] as? [String] == ["links.example.com", "go.example.com"])
        #expect(follow(fixture, "spring", key: key).status == 302)

        let listed = fixture.send(.get, "/s2s/v1/proxy-keys", key: tenant.key)
        #expect(listed.status == 200)
        #expect(!bodyText(listed).contains(key))
        let keys = try #require(jsonObject(listed)["proxyKeys"] as? [[String: Any]])
        #expect(keys.count == 1)
        #expect(keys.first?["proxyKeyId"] as? String == id && keys.first?["visiblePrefix"] as? String
                == String(key.prefix(11)))
        #expect(keys.first?["revokedAt"] is NSNull && keys.first?["createdAt"] as? String != nil)

        let revoked = fixture.send(.delete, "/s2s/v1/proxy-keys/\(id)", key: tenant.key)
        #expect(revoked.status == 200, "\(bodyText(revoked))")
        let revokedAt = try #require(jsonObject(revoked)["revokedAt"] as? String)
        #expect(follow(fixture, "spring", key: key).status == 404)
        // Again: the same answer, nothing recorded twice.
        let again = fixture.send(.delete, "/s2s/v1/proxy-keys/\(id)", key: tenant.key)
        #expect(again.status == 200 && jsonObject(again)["revokedAt"] as? String == revokedAt)
        let events = try fixture.owner().query("""
            SELECT count(*) AS n FROM events WHERE event_type = 'ProxyKeyRevoked' AND org_id = $1::uuid
            """, [.text(tenant.org)]).rows[0].string("n")
        #expect(events == "1")
        let after = jsonObject(fixture.send(.get, "/s2s/v1/proxy-keys", key: tenant.key))["proxyKeys"]
        #expect((after as? [[String: Any]])?.first?["revokedAt"] as? String == revokedAt)
    }

    @Test func anotherOrganizationsKeyIsNotFoundAndNotListed() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let created = fixture.send(.post, "/s2s/v1/proxy-keys", key: a.key, body: #"{"domains":["a.example.com"]}"#)
        let id = try #require(jsonObject(created)["proxyKeyId"] as? String)
        let foreign = fixture.send(.delete, "/s2s/v1/proxy-keys/\(id)", key: b.key)
        #expect(foreign.status == 404 && jsonObject(foreign)["code"] as? String == "NOT_FOUND")
        #expect(jsonObject(fixture.send(.get, "/s2s/v1/proxy-keys", key: b.key))["proxyKeys"] as? [Any] != nil)
        #expect((jsonObject(fixture.send(.get, "/s2s/v1/proxy-keys", key: b.key))["proxyKeys"] as? [Any])?.isEmpty
                == true)
        for path in ["/s2s/v1/proxy-keys/\(UUID().uuidString.lowercased())", "/s2s/v1/proxy-keys/not-an-id"] {
            #expect(fixture.send(.delete, path, key: a.key).status == 404, "\(path)")
        }
        // A's key still works after B's attempt.
        let keys = jsonObject(fixture.send(.get, "/s2s/v1/proxy-keys", key: a.key))["proxyKeys"] as? [[String: Any]]
        #expect(keys?.first?["revokedAt"] is NSNull)
    }

    @Test func refusalsNameTheField() throws {
        let fixture = try F.migrated()
        let tenant = try fixture.tenant()
        let many = (0...20).map { #""d\#($0).example.com""# }.joined(separator: ",")
        for body in [#"{"domains":[]}"#, #"{"domains":["localhost"]}"#, #"{"domains":["-a.example.com"]}"#,
                     #"{"domains":[\#(many)]}"#] {
            let refused = fixture.send(.post, "/s2s/v1/proxy-keys", key: tenant.key, body: body)
            #expect(refused.status == 400, "\(body)")
            #expect(jsonObject(refused)["code"] as? String == "VALIDATION_PROXY_DOMAIN_FORMAT", "\(body)")
            #expect(bodyText(refused).contains("domains"), "\(body)")
        }
        for body in ["{}", #"{"domains":["a.example.com"],"extra":1}"#, #"{"domains":"a.example.com"}"#] {
            let refused = fixture.send(.post, "/s2s/v1/proxy-keys", key: tenant.key, body: body)
            #expect(refused.status == 400, "\(body)")
        }
        let anonymous = s2sRequest(.post, "/s2s/v1/proxy-keys", key: nil, body: #"{"domains":["a.example.com"]}"#)
        #expect(fixture.api.respond(to: anonymous).status == 401)
    }

    @Test func theCLIListsAndRevokesAsTheRoutesDo() throws {
        let fixture = try F.migrated()
        let tenant = try fixture.tenant()
        let body = #"{"domains":["a.example.com"]}"#
        let created = fixture.send(.post, "/s2s/v1/proxy-keys", key: tenant.key, body: body)
        let id = try #require(jsonObject(created)["proxyKeyId"] as? String)
        let listed = try fixture.tenants.admin(["link", "proxy-keys", "--org", tenant.org])
        #expect(listed.status == .exited(0))
        #expect(listed.stdout.contains(id) && listed.stdout.contains(#""revokedAt":null"#), "\(listed.stdout)")
        let revoked = try fixture.tenants.admin(["link", "proxy-key-revoke", "--org", tenant.org, "--id", id])
        #expect(revoked.status == .exited(0), "\(revoked.stderr)")
        let keys = jsonObject(fixture.send(.get, "/s2s/v1/proxy-keys", key: tenant.key))["proxyKeys"]
        #expect((keys as? [[String: Any]])?.first?["revokedAt"] as? String != nil)
        #expect(try fixture.tenants.admin(["link", "proxy-key-revoke", "--org", tenant.org, "--id", "nope"]).status
                == .exited(2))
        let other = try fixture.tenant()
        #expect(try fixture.tenants.admin(["link", "proxy-key-revoke", "--org", other.org, "--id", id]).status
                == .exited(1))
    }
}
