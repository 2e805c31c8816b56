import HTTPServer

/// Every endpoint of the API as a value; a request is parsed into one once, then switched over exhaustively.
public enum Route: Sendable, Equatable {
    case healthz
    case readyz
    case metrics
    case openAPI

    /// The routing table: method, path pattern, and the route value it yields.
    public static let router: Router<Route> = {
        var router = Router<Route>()
        router.add(.get, "/healthz") { _ in .healthz }
        router.add(.get, "/readyz") { _ in .readyz }
        router.add(.get, "/metrics") { _ in .metrics }
        router.add(.get, "/openapi.json") { _ in .openAPI }
        return router
    }()

    /// Bytes of body this route accepts; nil takes the environment's default.
    var bodyLimit: Int? {
        switch self {
        case .healthz, .readyz, .metrics, .openAPI: return 0
        }
    }
}
