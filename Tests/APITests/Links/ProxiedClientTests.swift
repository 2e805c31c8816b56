import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Issue 21, the proxy-IP rule: behind an organization's first-party proxy every visitor arrives from the proxy's
/// address; the client is the address the proxy forwarded for (`X-Forwarded-For`) only when a valid proxy key comes
/// with it — for the per-IP limit and the visitor hash alike. Without a key, or with a wrong one, the proxy is the
/// client.
@Suite struct ProxiedClientTests {
    private typealias F = GoLinkFixture
    static let proxy = "198.51.100.200"

    private func proxyKey(_ fixture: F, org: String) throws -> String {
        let outcome = try fixture.tenants.admin(["link", "proxy-key", "--org", org, "--domains", "links.example.com"])
        guard let key = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
              let text = key["proxyKey"] as? String
        else { throw AdminFailed(outcome: outcome.stderr) }
        return text
    }

    /// `GET /v1/go/<ref>` from the proxy's address, forwarded for `visitor`, with `key` when given.
    private func follow(_ fixture: F, _ ref: String, key: String?, visitor: String) -> Response {
        var headers = [("User-Agent", F.desktopAgent), ("X-Forwarded-For", visitor)]
        if let key { headers.append(("X-Handoff-Proxy-Key", key)) }
        return fixture.api.respond(to: Request(method: .get, path: "/v1/go/" + ref, headers: Headers(headers),
                                               clientIP: Self.proxy, remoteAddress: Self.proxy,
                                               forwardedClientIP: visitor))
    }

    @Test func aValidProxyKeyMakesTheForwardedAddressTheClientForTheLimitAndTheVisitorHash() throws {
        let fixture = try F.migrated(goLinkLimit: TestIdentity.uniqueLimit(count: 2))
        let tenant = try fixture.tenant()
        let link = try fixture.link(key: tenant.key, #"{"fallbackUrl":"https://a.example.com/","code":"spring"}"#)
        let key = try proxyKey(fixture, org: tenant.org)
        // Three visitors through one proxy, a limit of two per client: none is limited, each has its own hash.
        for visitor in ["192.0.2.1", "192.0.2.2", "192.0.2.3"] {
            #expect(follow(fixture, "spring", key: key, visitor: visitor).status == 302)
        }
        let hashes = try fixture.clicks(org: tenant.org).map { try $0.string("visitor_hash") }
        #expect(hashes.count == 3 && Set(hashes).count == 3)
        // The same visitor twice more: its own budget of two is spent.
        #expect(follow(fixture, "spring", key: key, visitor: "192.0.2.1").status == 302)
        #expect(follow(fixture, "spring", key: key, visitor: "192.0.2.1").status == 429)
        // Without the key the proxy's address is the client, whatever it forwards for: two, then 429.
        let token = try #require(link["token"] as? String)
        #expect(follow(fixture, token, key: nil, visitor: "192.0.2.4").status == 302)
        #expect(follow(fixture, token, key: nil, visitor: "192.0.2.5").status == 302)
        #expect(follow(fixture, token, key: nil, visitor: "192.0.2.6").status == 429)
        // Six clicks from four clients: the three visitors and the proxy itself.
        let all = try fixture.clicks(org: tenant.org).map { try $0.string("visitor_hash") }
        #expect(all.count == 6 && Set(all).count == 4)
    }

    @Test func aWrongProxyKeyLeavesTheProxyAsTheClient() throws {
        let fixture = try F.migrated(goLinkLimit: TestIdentity.uniqueLimit(count: 2))
        let wrong = "px_" + String(repeating: "A", count: 32)
        // A wrong key resolves nothing (404), and its requests count against the proxy's own address.
        #expect(follow(fixture, "spring", key: wrong, visitor: "192.0.2.7").status == 404)
        #expect(follow(fixture, "spring", key: wrong, visitor: "192.0.2.8").status == 404)
        #expect(follow(fixture, "spring", key: wrong, visitor: "192.0.2.9").status == 429)
    }
}
