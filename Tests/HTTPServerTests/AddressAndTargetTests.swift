@testable import HTTPServer
import Testing

@Suite struct AddressAndTargetTests {
    @Test func cidrRangesTrustAddressesInsideAndNotOutside() throws {
        let trust = try ProxyTrust(["10.0.0.0/8", "192.168.1.7", "fd00::/8"])
        #expect(trust.trusts("10.255.0.1"))
        #expect(trust.trusts("192.168.1.7"))
        #expect(!trust.trusts("192.168.1.8"))
        #expect(!trust.trusts("11.0.0.1"))
        #expect(trust.trusts("fd12:3456::1"))
        #expect(!trust.trusts("fe80::1"))
        #expect(trust.trusts("::ffff:10.1.2.3"))
        #expect(!trust.trusts("not an address"))
    }

    @Test func whenEveryHopIsTrustedTheLeftMostIsTheClient() throws {
        let trust = try ProxyTrust(["10.0.0.0/8"])
        #expect(trust.clientIP(peer: "10.0.0.1", forwardedFor: ["10.0.0.9, 10.0.0.5"]) == "10.0.0.9")
    }

    @Test func badTrustedProxyEntriesAreRefused() {
        #expect(throws: ServerError.self) { try ProxyTrust(["10.0.0.0/99"]) }
        #expect(throws: ServerError.self) { try ProxyTrust(["example.com"]) }
    }

    @Test func aTargetSplitsIntoADecodedPathAndQuery() {
        let target = RequestTarget(raw: Array("/a%20b/c+d%2?x=%41%4&y=1+2&y=3".utf8))
        #expect(target.path == "/a b/c+d%2")
        #expect(target.rawQuery == "x=%41%4&y=1+2&y=3")
        #expect(target.query == ["x": "A%4", "y": "3"])
    }

    @Test func anAbsoluteFormTargetLosesSchemeAndAuthority() {
        let target = RequestTarget(raw: Array("http://example.com:8080/items/1?q=z".utf8))
        #expect(target.path == "/items/1")
        #expect(target.query == ["q": "z"])
    }
}
