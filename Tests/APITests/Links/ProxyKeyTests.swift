import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Proxy keys (issue 21): an organization's key for its first-party proxy; with it, `GET /v1/go/{code}` resolves the
/// organization's link codes; without it, or with another organization's or a wrong key, codes never resolve.
@Suite struct ProxyKeyTests {
    private typealias F = GoLinkFixture

    /// Issues a proxy key for `org` through the CLI; its text.
    private func proxyKey(_ fixture: F, org: String, domains: String = "links.example.com") throws -> String {
        let outcome = try fixture.tenants.admin(["link", "proxy-key", "--org", org, "--domains", domains])
        guard outcome.status == .exited(0),
              let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
              let key = json["proxyKey"] as? String
        else { throw AdminFailed(outcome: outcome.stderr) }
        #expect(json["header"] as? String == "X-Handoff-Proxy-Key")
        return key
    }

    private func follow(_ fixture: F, _ ref: String, key: String?) -> Response {
        var headers = [("User-Agent", F.desktopAgent)]
        if let key { headers.append(("X-Handoff-Proxy-Key", key)) }
        return fixture.api.respond(to: Request(method: .get, path: "/v1/go/" + ref, query: [:],
                                               headers: Headers(headers), body: [], clientIP: "198.51.100.90",
                                               remoteAddress: "198.51.100.90"))
    }

    @Test func aCodeResolvesOnlyWithItsOrganizationsProxyKey() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let link = try fixture.link(key: a.key, #"{"fallbackUrl":"https://a.example.com/","code":"spring"}"#)
        let token = try #require(link["token"] as? String)
        let keyA = try proxyKey(fixture, org: a.org, domains: "Links.Example.com,go.example.com")
        let keyB = try proxyKey(fixture, org: b.org)
        #expect(keyA.hasPrefix("px_") && keyA.count == 35)
        let proxied = follow(fixture, "spring", key: keyA)
        #expect(proxied.status == 302 && proxied.headers["Location"] == "https://a.example.com/")
        // The global token works through the proxy too.
        #expect(follow(fixture, token, key: keyA).status == 302)
        // Without a key, with another org's, a malformed or an unknown key: the plain 404, nothing recorded.
        for key in [nil, keyB, "px_nope", "px_" + String(repeating: "A", count: 32)] {
            let page = follow(fixture, "spring", key: key)
            #expect(page.status == 404 && bodyText(page).contains("Link not found"))
        }
        // Another org's key does not open A's token either.
        #expect(follow(fixture, token, key: keyB).status == 404)
        #expect(try fixture.clicks(org: a.org).count == 2)
        // Only the hash is stored, with the visible prefix and the domains in lowercase.
        let row = try #require(try fixture.owner().query("""
            SELECT key_hash, visible_prefix, array_to_string(domains, ',') AS domains FROM proxy_keys
            WHERE org_id = $1::uuid
            """, [.text(a.org)]).rows.first)
        #expect(row["domains"] == "links.example.com,go.example.com")
        #expect(row["visible_prefix"] == String(keyA.prefix(11)) && row["key_hash"] != keyA)
        #expect(try fixture.owner().query("SELECT count(*) AS n FROM events WHERE data::text LIKE $1",
                                          [.text("%" + keyA + "%")]).rows[0].int("n") == 0)
    }

    @Test func theCLIRefusesBadDomainsAndAnUnknownOrganization() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        for domains in ["", "localhost", "a..b.com", "-x.example.com", "exa mple.com"] {
            let outcome = try fixture.tenants.admin(["link", "proxy-key", "--org", a.org, "--domains", domains])
            #expect(outcome.status == .exited(2) && outcome.stderr.contains("--domains"), "\(domains)")
        }
        let unknown = try fixture.tenants.admin(["link", "proxy-key", "--org", UUID().uuidString.lowercased(),
                                                 "--domains", "links.example.com"])
        #expect(unknown.status == .exited(1))
    }
}
