import HTTPServer

/// Every endpoint of the API as a value; a request is parsed into one once, then switched over exhaustively.
public enum Route: Sendable, Equatable {
    case healthz
    case readyz
    case openAPI
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

    /// The routing table: method, path pattern, and the route value it yields.
    public static let router: Router<Route> = {
        var router = Router<Route>()
        router.add(.get, "/healthz") { _ in .healthz }
        router.add(.get, "/readyz") { _ in .readyz }
        router.add(.get, "/openapi.json") { _ in .openAPI }
        router.add(.get, "/s2s/v1/project") { _ in .project }
        router.add(.patch, "/s2s/v1/project") { _ in .updateProject }
        router.add(.post, "/s2s/v1/users") { _ in .createUser }
        router.add(.get, "/s2s/v1/users/{guid}") { .user(guid: $0["guid"] ?? "") }
        router.add(.get, "/s2s/v1/users/{guid}/entitlements") { .userEntitlements(guid: $0["guid"] ?? "") }
        router.add(.get, "/s2s/v1/events") { _ in .events }
        router.add(.post, "/s2s/v1/payments") { _ in .createPayment }
        router.add(.post, "/s2s/v1/payments/{paymentId}/refund") { .refundPayment(paymentId: $0["paymentId"] ?? "") }
        router.add(.get, "/public/paywall/buyer") { _ in .paywallBuyer }
        router.add(.get, "/public/entitlements") { _ in .publicEntitlements }
        router.add(.get, "/done/{pageToken}") { .postPaymentPage(pageToken: $0["pageToken"] ?? "") }
        router.add(.post, "/public/handoff/fingerprint") { _ in .captureFingerprint }
        router.add(.post, "/public/handoff/resolve-by-fingerprint") { _ in .resolveByFingerprint }
        router.add(.get, "/public/handoff/resolve") { _ in .resolveCode }
        router.add(.post, "/public/handoff/email-recovery/request") { _ in .emailRecoveryRequest }
        return router
    }()

    /// Bytes of body this route accepts; nil takes the environment's default.
    var bodyLimit: Int? {
        switch self {
        case .healthz, .readyz, .openAPI, .project, .paywallBuyer, .user, .userEntitlements,
             .publicEntitlements, .events, .postPaymentPage, .resolveCode: return 0
        case .captureFingerprint, .resolveByFingerprint: return 1024
        case .updateProject, .createUser, .createPayment: return 4096
        case .refundPayment, .emailRecoveryRequest: return 1024
        }
    }

    /// Who may call this route: anyone, or a caller with a live secret key (`Authorization: Bearer sk_live_…`).
    var access: Access {
        switch self {
        case .healthz, .readyz, .openAPI, .paywallBuyer, .publicEntitlements, .postPaymentPage,
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
