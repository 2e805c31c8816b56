@testable import HTTPServer
import Testing

/// `Request.forwardedClientIP` (issue 21): the address the client says it forwarded for, one hop left of the client
/// the trusted proxies lead to — what a first-party proxy with a valid proxy key vouches for.
@Suite struct ForwardedClientTests {
    @Test func withoutTrustedProxiesItIsTheRightMostHop() throws {
        let trust = try ProxyTrust([])
        #expect(trust.clientIP(peer: "203.0.113.9", forwardedFor: ["198.51.100.1, 192.0.2.4"]) == "203.0.113.9")
        #expect(trust.forwardedClientIP(peer: "203.0.113.9", forwardedFor: ["198.51.100.1, 192.0.2.4"])
                == "192.0.2.4")
        #expect(trust.forwardedClientIP(peer: "203.0.113.9", forwardedFor: ["198.51.100.1", "192.0.2.4"])
                == "192.0.2.4")
    }

    @Test func behindTrustedProxiesItIsTheHopLeftOfTheFirstUntrustedOne() throws {
        let trust = try ProxyTrust(["10.0.0.0/8"])
        let hops = ["192.0.2.4, 203.0.113.9, 10.0.0.7"]
        #expect(trust.clientIP(peer: "10.0.0.1", forwardedFor: hops) == "203.0.113.9")
        #expect(trust.forwardedClientIP(peer: "10.0.0.1", forwardedFor: hops) == "192.0.2.4")
        #expect(trust.forwardedClientIP(peer: "10.0.0.1", forwardedFor: ["2001:db8::5, 203.0.113.9"]) == "2001:db8::5")
    }

    @Test func thereIsNoneWithoutAHopOrWhenItIsNotAnAddress() throws {
        let trust = try ProxyTrust(["10.0.0.0/8"])
        #expect(trust.forwardedClientIP(peer: "203.0.113.9", forwardedFor: []) == nil)
        #expect(trust.forwardedClientIP(peer: "203.0.113.9", forwardedFor: ["unknown"]) == nil)
        #expect(trust.forwardedClientIP(peer: "10.0.0.1", forwardedFor: ["203.0.113.9"]) == nil)
        #expect(trust.forwardedClientIP(peer: "10.0.0.1", forwardedFor: ["junk, 203.0.113.9"]) == nil)
        // Every hop trusted: the left-most is the client and nothing is left of it.
        #expect(trust.forwardedClientIP(peer: "10.0.0.1", forwardedFor: ["10.0.0.9, 10.0.0.5"]) == nil)
    }
}
