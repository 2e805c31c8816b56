import HTTPServer
import Testing

@Suite struct RouterTests {
    enum Route: Sendable, Equatable {
        case token(String)
        case config
        case list
        case create
    }

    let router: Router<Route> = {
        var router = Router<Route>()
        router.add(.get, "/v1/store/apple/{token}") { .token($0["token"] ?? "") }
        router.add(.get, "/v1/store/apple/config") { _ in .config }
        router.add(.get, "/v1/items") { _ in .list }
        router.add(.post, "/v1/items") { _ in .create }
        return router
    }()

    @Test func aPatternWithAParameterFindsTheRouteAndItsValue() {
        guard case .found(let route, let pattern) = router.match(.get, "/v1/store/apple/abc123") else {
            Issue.record("no match")
            return
        }
        #expect(route == .token("abc123"))
        #expect(pattern == "/v1/store/apple/{token}")
    }

    @Test func aLiteralSegmentWinsOverAParameter() {
        guard case .found(let route, _) = router.match(.get, "/v1/store/apple/config") else {
            Issue.record("no match")
            return
        }
        #expect(route == .config)
    }

    @Test func aKnownPathWithAnotherMethodIsMethodNotAllowedListingTheAllowedMethods() {
        guard case .methodNotAllowed(let allowed) = router.match(.delete, "/v1/items") else {
            Issue.record("expected methodNotAllowed")
            return
        }
        #expect(allowed == [.get, .post, .head])
    }

    @Test func anUnknownPathIsNotFound() {
        guard case .notFound = router.match(.get, "/v1/nothing") else {
            Issue.record("expected notFound")
            return
        }
        guard case .notFound = router.match(.get, "/v1/store/apple/abc/extra") else {
            Issue.record("expected notFound for an extra segment")
            return
        }
    }

    @Test func anEmptySegmentDoesNotFillAParameter() {
        guard case .notFound = router.match(.get, "/v1/store/apple/") else {
            Issue.record("expected notFound")
            return
        }
    }

    @Test func headIsAnsweredByTheGetRoute() {
        guard case .found(let route, let pattern) = router.match(.head, "/v1/items") else {
            Issue.record("HEAD did not match the GET route")
            return
        }
        #expect(route == .list)
        #expect(pattern == "/v1/items")
    }

    @Test func theRouterListsItsPatternsOnceEach() {
        #expect(router.patterns == ["/v1/store/apple/{token}", "/v1/store/apple/config", "/v1/items"])
    }

    @Test func methodsReadFromTheRequestLineRoundTrip() {
        #expect(Method("GET") == .get)
        #expect(Method("PATCH") == .patch)
        #expect(Method("PROPFIND") == .other("PROPFIND"))
        #expect(Method("get") == .other("get"))
        #expect(Method.other("PROPFIND").rawValue == "PROPFIND")
    }

    @Test func headerLookupIgnoresLetterCaseAndKeepsOrder() {
        var headers = Headers([("Content-Type", "text/plain")])
        headers.add("Set-Cookie", "a=1")
        headers.add("set-cookie", "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values("SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["X-Missing"] == nil)
        #expect(headers.pairs.map(\.0) == ["Content-Type", "Set-Cookie", "set-cookie"])
    }
}
