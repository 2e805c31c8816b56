import HTTPServer

/// Every endpoint of the API as a value; a request is parsed into one once, then switched over exhaustively.
public enum Route: Sendable, Equatable {
    case healthz
    case readyz
    case metrics
    case openAPI
    /// `GET /s2s/v1/project`: the key's project settings.
    case project
    /// `PATCH /s2s/v1/project`: change the key's project settings.
    case updateProject

    /// The routing table: method, path pattern, and the route value it yields.
    public static let router: Router<Route> = {
        var router = Router<Route>()
        router.add(.get, "/healthz") { _ in .healthz }
        router.add(.get, "/readyz") { _ in .readyz }
        router.add(.get, "/metrics") { _ in .metrics }
        router.add(.get, "/openapi.json") { _ in .openAPI }
        router.add(.get, "/s2s/v1/project") { _ in .project }
        router.add(.patch, "/s2s/v1/project") { _ in .updateProject }
        return router
    }()

    /// Bytes of body this route accepts; nil takes the environment's default.
    var bodyLimit: Int? {
        switch self {
        case .healthz, .readyz, .metrics, .openAPI, .project: return 0
        case .updateProject: return 4096
        }
    }

    /// Who may call this route: anyone, or a caller with a live secret key (`Authorization: Bearer sk_live_…`).
    var access: Access {
        switch self {
        case .healthz, .readyz, .metrics, .openAPI: return .open
        case .project, .updateProject: return .secretKey
        }
    }

    /// Who may call a route.
    enum Access: Sendable, Equatable {
        case open
        /// Server-to-server: a live secret key, rate-limited per key.
        case secretKey
    }
}
