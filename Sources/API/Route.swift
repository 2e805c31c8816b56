import HTTPServer

/// Every endpoint of the API as a value; a request is parsed into one once, then switched over exhaustively.
public enum Route: Sendable, Equatable {
    /// `GET /healthz`: the process answers.
    case healthz
    /// `GET /readyz`: Postgres and Redis answer too.
    case readyz
    /// `GET /openapi.json`: the OpenAPI 3.1 description of every route below, built from the same definitions.
    case openAPI
    /// `GET /docs`: that description rendered for people (Redoc, served from this build, nothing fetched elsewhere).
    case docs
    /// `GET /docs/redoc.standalone.js`: the renderer `/docs` loads.
    case docsScript
    /// `GET /s2s/v1/project`: the key's project settings.
    case project
    /// `PATCH /s2s/v1/project`: change the key's project settings.
    case updateProject
    /// `POST /s2s/v1/users`: find or create a buyer by externalId or e-mail; answers its guid and paywall URL.
    case createUser
    /// `POST /s2s/v1/payments`: record a payment and mint its handoff code and install token (idempotent).
    case createPayment
    /// `POST /s2s/v1/payments/{paymentId}/refund`: revoke the payment's entitlement (repeats harmless).
    case refundPayment(paymentId: String)
    /// `GET /s2s/v1/users/{guid}`: the buyer's home project, externalId, e-mail verification and creation time.
    case user(guid: String)
    /// `GET /s2s/v1/users/{guid}/entitlements`: the buyer's entitlements, judged at read time.
    case userEntitlements(guid: String)
    /// `GET /public/entitlements?projectId=&guid=`: the same for devices, wrapped in `success/data`.
    case publicEntitlements
    /// `GET /s2s/v1/events?after=&limit=`: the key's organization's history with hashes, personal data opened.
    case events
    /// `GET /public/paywall/buyer`: who the buyer on the paywall is, from `origin`, `id` and `pass`.
    case paywallBuyer
    /// `GET /done/{pageToken}`: the post-payment page (HTML) with the code, the app and store buttons.
    case postPaymentPage(pageToken: String)
    /// `POST /public/handoff/fingerprint`: the post-payment page's script sends the browser fingerprint.
    case captureFingerprint
    /// `POST /public/handoff/resolve-by-fingerprint`: an app learns its buyer's guid from a recorded fingerprint.
    case resolveByFingerprint
    /// `GET /public/handoff/resolve?code=`: exchange a handoff code or install token (once) for its buyer's guid.
    case resolveCode
    /// `POST /public/handoff/email-recovery/request`: ask for a recovery mail; always 204 for a well-formed body.
    case emailRecoveryRequest

    /// Every endpoint: method, path pattern, and the route value a match yields. The router and `/openapi.json` are
    /// both built from this list, so a route cannot be served without being described.
    static let endpoints: [Endpoint] = [
        Endpoint(.get, "/healthz") { _ in .healthz },
        Endpoint(.get, "/readyz") { _ in .readyz },
        Endpoint(.get, "/openapi.json") { _ in .openAPI },
        Endpoint(.get, "/docs") { _ in .docs },
        Endpoint(.get, "/docs/redoc.standalone.js") { _ in .docsScript },
        Endpoint(.get, "/s2s/v1/project") { _ in .project },
        Endpoint(.patch, "/s2s/v1/project") { _ in .updateProject },
        Endpoint(.post, "/s2s/v1/users") { _ in .createUser },
        Endpoint(.get, "/s2s/v1/users/{guid}") { .user(guid: $0["guid"] ?? "") },
        Endpoint(.get, "/s2s/v1/users/{guid}/entitlements") { .userEntitlements(guid: $0["guid"] ?? "") },
        Endpoint(.get, "/s2s/v1/events") { _ in .events },
        Endpoint(.post, "/s2s/v1/payments") { _ in .createPayment },
        Endpoint(.post, "/s2s/v1/payments/{paymentId}/refund") { .refundPayment(paymentId: $0["paymentId"] ?? "") },
        Endpoint(.get, "/public/paywall/buyer") { _ in .paywallBuyer },
        Endpoint(.get, "/public/entitlements") { _ in .publicEntitlements },
        Endpoint(.get, "/done/{pageToken}") { .postPaymentPage(pageToken: $0["pageToken"] ?? "") },
        Endpoint(.post, "/public/handoff/fingerprint") { _ in .captureFingerprint },
        Endpoint(.post, "/public/handoff/resolve-by-fingerprint") { _ in .resolveByFingerprint },
        Endpoint(.get, "/public/handoff/resolve") { _ in .resolveCode },
        Endpoint(.post, "/public/handoff/email-recovery/request") { _ in .emailRecoveryRequest },
    ]

    /// The routing table, from `endpoints`.
    public static let router: Router<Route> = {
        var router = Router<Route>()
        for endpoint in endpoints { router.add(endpoint.method, endpoint.pattern, endpoint.make) }
        return router
    }()

    /// One entry of the routing table.
    struct Endpoint: Sendable {
        let method: HTTPServer.Method
        let pattern: String
        /// Turns the path parameters of a match into the route value.
        let make: @Sendable ([String: String]) -> Route

        init(_ method: HTTPServer.Method, _ pattern: String, _ make: @escaping @Sendable ([String: String]) -> Route) {
            self.method = method
            self.pattern = pattern
            self.make = make
        }
    }

    /// Bytes of body this route accepts; nil takes the environment's default.
    var bodyLimit: Int? {
        switch self {
        case .healthz, .readyz, .openAPI, .docs, .docsScript, .project, .paywallBuyer, .user, .userEntitlements,
             .publicEntitlements, .events, .postPaymentPage, .resolveCode: return 0
        case .captureFingerprint, .resolveByFingerprint, .refundPayment: return 1024
        case .createPayment, .emailRecoveryRequest: return 4096
        case .updateProject, .createUser: return 8192
        }
    }

    /// Who may call this route: anyone, or a caller with a live secret key (`Authorization: Bearer sk_live_…`).
    var access: Access {
        switch self {
        case .healthz, .readyz, .openAPI, .docs, .docsScript, .paywallBuyer, .publicEntitlements, .postPaymentPage,
             .captureFingerprint, .resolveByFingerprint, .resolveCode, .emailRecoveryRequest: return .open
        case .project, .updateProject, .createUser, .createPayment, .refundPayment, .user, .userEntitlements,
             .events: return .secretKey
        }
    }

    /// Who may call a route.
    enum Access: Sendable, Equatable {
        case open
        /// Server-to-server: a live secret key, rate-limited per key.
        case secretKey
    }
}
