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

}
