@testable import HTTPServer
import Testing

/// What the libFuzzer targets (Tests/Fuzz, docs/fuzzing.md) found in the HTTP layer, each with the input that showed
/// it, kept as regression tests.
@Suite struct FuzzFindingsTests {
    /// `request-target`, input `00 3f 00 00` (`http://?`): the authority of an absolute-form target ran to the first
    /// `/`, so `http://host?x=1` lost its query and `http://host?next=/a/b` read the path `/a/b`. It ends at the first
    /// `/`, `?` or `#` (RFC 3986 §3.2).
    @Test func anAbsoluteFormTargetWithoutAPathKeepsItsQuery() {
        #expect(RequestTarget(raw: Array("http://?".utf8)) == RequestTarget(raw: Array("/?".utf8)))
        let target = RequestTarget(raw: Array("http://example.com?code=ABCD2345&next=/a/b".utf8))
        #expect(target.path == "/")
        #expect(target.query == ["code": "ABCD2345", "next": "/a/b"])
        #expect(RequestTarget(raw: Array("https://example.com#x/y".utf8)).path == "/")
        #expect(RequestTarget(raw: Array("http://example.com:8080/items/1?q=z".utf8)).path == "/items/1")
    }

    /// `forwarded-for`, its fixed proxy list `::ffff:192.168.0.0/112`: a mapped IPv4 range written in IPv6 form was
    /// refused whenever its prefix went past 32 (every prefix that names less than all of IPv4), so `handoff serve`
    /// would not start with it. Its prefix counts the 128 bits of the text as written, the IPv4 part from bit 96.
    @Test func aMappedIPv4RangeInIPv6FormCountsItsBitsFrom96() throws {
        let range = try ProxyTrust(["::ffff:192.168.0.0/112"])
        #expect(range.trusts("192.168.44.1"))
        #expect(range.trusts("::ffff:192.168.44.1"))
        #expect(!range.trusts("192.169.0.1"))
        let single = try ProxyTrust(["::ffff:10.0.0.1/128"])
        #expect(single.trusts("10.0.0.1"))
        #expect(!single.trusts("10.0.0.2"))
        #expect(throws: ServerError.self) { try ProxyTrust(["::ffff:10.0.0.0/129"]) }
        #expect(throws: ServerError.self) { try ProxyTrust(["10.0.0.0/33"]) }
    }

    /// `request-target`, input `/done/A/` U+064C …: the router cut paths into segments at grapheme clusters, so a `/`
    /// followed by a combining mark did not end a segment, and `/done/A/\u{64C}x` matched `/done/{pageToken}` with
    /// the token `A/\u{64C}x`. Segments end at every `/`.
    @Test func aSlashFollowedByACombiningMarkStillEndsASegment() {
        var router = Router<String>()
        router.add(.get, "/done/{token}") { "token " + ($0["token"] ?? "") }
        router.add(.get, "/done/{a}/{b}") { "a " + ($0["a"] ?? "") + ", b " + ($0["b"] ?? "") }
        guard case .found(let route, _) = router.match(.get, "/done/A/\u{64C}x") else {
            Issue.record("no match for /done/A/\u{64C}x")
            return
        }
        #expect(route == "a A, b \u{64C}x")
    }
}
