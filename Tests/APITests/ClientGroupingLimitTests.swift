import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Per-IP limits through the responder with forged client addresses: an IPv6 client counts by its /64 (or the
/// configured prefix), an IPv4-mapped address as the IPv4 address (`Environment.clientKey`).
@Suite struct ClientGroupingLimitTests {
    private static let unknownProject = "3f8fad5b-d9cb-469f-a165-70867728950e"
    private static let guid = "2f8fad5b-d9cb-469f-a165-70867728950e"

    /// The status of `GET /public/entitlements` for a project nobody has (404 until the client's budget is spent).
    private func entitlements(_ api: APIResponder, from clientIP: String) -> Int {
        api.respond(to: publicRequest("/public/entitlements", query: ["projectId": Self.unknownProject,
                                                                      "guid": Self.guid], clientIP: clientIP)).status
    }

    /// The status of an S2S request with a well-formed key nobody has (401 until the client's budget is spent).
    private func guessKey(_ api: APIResponder, from clientIP: String) -> Int {
        var request = s2sRequest(.get, "/s2s/v1/project", key: SecretKeyText.fresh())
        request.clientIP = clientIP
        return api.respond(to: request).status
    }

    @Test func twoAddressesOfOneSlash64ShareAPublicBudgetAndAnotherSlash64HasItsOwn() throws {
        let fixture = try TenantFixture.migrated()
        let api = try fixture.responder(publicEntitlementsLimit: TestIdentity.uniqueLimit(count: 2))
        #expect(entitlements(api, from: "2001:db8:a:1::1") == 404)
        #expect(entitlements(api, from: "2001:db8:a:1:ffff:ffff:ffff:2") == 404)
        #expect(entitlements(api, from: "2001:db8:a:1::3") == 429)
        #expect(entitlements(api, from: "2001:db8:a:2::1") == 404)
    }

    @Test func failedKeyChecksFromOneSlash64ShareABudgetAndAnIPv4MappedAddressCountsAsTheIPv4One() throws {
        let fixture = try TenantFixture.migrated()
        let api = try fixture.responder(authFailureLimit: TestIdentity.uniqueLimit(count: 2))
        let slash64 = ["2001:db8:b:1::a", "2001:db8:b:1::b", "2001:db8:b:1::c"].map { guessKey(api, from: $0) }
        #expect(slash64 == [401, 401, 429])
        #expect(guessKey(api, from: "2001:db8:b:2::a") == 401)
        let ipv4 = ["198.51.100.20", "::ffff:198.51.100.20", "198.51.100.20"].map { guessKey(api, from: $0) }
        #expect(ipv4 == [401, 401, 429])
        #expect(guessKey(api, from: "198.51.100.21") == 401)
    }

    @Test func withAPrefixLengthOf128EveryIPv6AddressHasItsOwnBudget() throws {
        let fixture = try TenantFixture.migrated()
        let api = try fixture.responder(publicEntitlementsLimit: TestIdentity.uniqueLimit(count: 1),
                                        clientGrouping: ClientAddressGrouping(ipv6PrefixLength: 128))
        #expect(entitlements(api, from: "2001:db8:c:1::1") == 404)
        #expect(entitlements(api, from: "2001:db8:c:1::1") == 429)
        #expect(entitlements(api, from: "2001:db8:c:1::2") == 404)
    }
}
