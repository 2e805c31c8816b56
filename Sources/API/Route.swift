import Domain
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
    /// `POST /s2s/v1/users/{guid}/erasure`: erase the buyer's personal data (202 with the erasure's id; idempotent).
    case eraseUser(guid: String)
    /// `POST /s2s/v1/erasures`: erase every buyer holding an e-mail address and the address's recovery data.
    case eraseByEmail
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
    /// `POST /s2s/v1/apps`: create an app in the key's project; answers it with its store token and URLs (once).
    case createApp
    /// `GET /s2s/v1/apps`: the key's project's apps.
    case apps
    /// `GET /s2s/v1/apps/{appId}`: one app of the key's project, secrets as `{"set":true}`.
    case app(appId: String)
    /// `GET /s2s/v1/apps/{appId}/deliveries`: the app's forward attempts, newest first.
    case appDeliveries(appId: String)
    /// `PATCH /s2s/v1/apps/{appId}`: change an app (absent kept, null cleared).
    case updateApp(appId: String)
    /// `POST /s2s/v1/apps/{appId}/store-token`: rotate the store token; the old one stops at once.
    case rotateStoreToken(appId: String)
    /// `POST /s2s/v1/apps/{appId}/destinations`: add a forward destination (`x3` or `attribloom`).
    case addDestination(appId: String)
    /// `DELETE /s2s/v1/apps/{appId}/destinations/{destinationId}`: remove a forward destination.
    case removeDestination(appId: String, destinationId: String)
    /// `POST /public/app-account-token`: a buyer's App Store `appAccountToken`, the same for the same guid.
    case appAccountToken
    /// `GET /s2s/v1/audit/heads?after=&limit=`: the key's organization's signed chain heads, paged by `org_seq`.
    case auditHeads
    /// `GET /s2s/v1/audit/keys`: every public key of the deployment's audit key (old ones stay listed).
    case auditKeys
    /// `GET /s2s/v1/reports/payments?from=&to=&groupBy=`: the organization's payment report at its signed chain head.
    case paymentReport
    /// `POST /v1/m/store/{apple|google|revenuecat}/{token}`: a store's server notification for the app whose store
    /// token is `token`.
    case storeNotification(store: NotificationStore, token: String)
    /// `POST /s2s/v1/campaigns`: create an affiliate campaign (commission rule, window, hold, offer code).
    case createCampaign
    /// `GET /s2s/v1/campaigns`: the key's project's campaigns.
    case campaigns
    /// `POST /s2s/v1/affiliates`: create an affiliate under a campaign; answers its referral code and link.
    case createAffiliate
    /// `GET /s2s/v1/affiliates`: the key's project's affiliates.
    case affiliates
    /// `GET /s2s/v1/affiliates/{affiliateId}/statement`: an affiliate's commission credits, reversals and totals.
    case affiliateStatement(affiliateId: String)
    /// `GET /a/{refCode}?p=`: an affiliate's link: records a click, 302 to the landing URL with `click=` added.
    case affiliateLink(refCode: String)
    /// `POST /v1/app-store/bind`: bind an App Store `appAccountToken` to a click's or code's referral.
    case bind
    /// `POST /v1/app-store/assn/{surfaceId}`: an App Store notification forwarded by the developer's server, signed
    /// with the surface's forwarding secret (`x-ea-timestamp`, `x-ea-signature`).
    case forwardedNotification(surfaceId: String)
    /// `GET /s2s/v1/users/{guid}/timeline`: the buyer's facts in order with a sentence each, under a verdict.
    case userTimeline(guid: String)
    /// `GET /s2s/v1/payments/{paymentId}/timeline`: the same for one payment (its facts and the buyer-wide ones).
    case paymentTimeline(paymentId: String)
    /// `GET /s2s/v1/reports/handoff?from=&to=&offset=&limit=`: the key's project's handoff funnel.
    case handoffReport
    /// `POST /s2s/v1/dashboard-links`: a signed link to the key's project's handoff dashboard, valid one hour.
    case createDashboardLink
    /// `GET /dashboard/{token}`: the read-only handoff dashboard (HTML) a dashboard link opens.
    case dashboard(token: String)
    /// `POST /s2s/v1/apps/{appId}/recordings/replay-links`: a signed link to one session's replay, valid one hour.
    case createReplayLink(appId: String)
    /// `GET /replay/{token}`: the replay page (HTML, rrweb-player) a replay link opens.
    case replay(token: String)
    /// `GET /replay/{token}/events`: the session's rrweb events the replay page plays.
    case replayEvents(token: String)
    /// `GET /replay/{token}/assets/{sha}`: a screenshot (replay asset) of the replayed session's app, by SHA-256.
    case replayAsset(token: String, sha: String)
    /// `GET /replay-player.js`: the vendored rrweb-player and the page's start script.
    case replayPlayerScript
    /// `GET /replay-player.css`: rrweb-player's style sheet and the page's rules.
    case replayPlayerStyle
    /// `GET /v1/m/config/{pk}?plat=&bid=&sdk=`: the AppConfig of the app whose publishable key is `pk` (compact
    /// errors, docs/app-ingest.md).
    case ingestConfig(publishableKey: String)
    /// `POST /v1/m/batch`: an AppBatch v1 (sessions, screen views, events) with the publishable key in `k`.
    case ingestBatch
    /// `POST /v1/m/r`: a session-recording packet (`X3R1` framing, gzip NDJSON of rrweb events); answers text `ok`
    /// or `off` (docs/recordings.md).
    case ingestRecording
    /// `GET /s2s/v1/apps/{appId}/recordings?sessionId=`: a session's recording packets, by `seq`.
    case appRecordings(appId: String)
    /// `POST /v1/m/lead`: a lead form from the app's SDK (202; double submits record one lead).
    case ingestLead
    /// `GET /s2s/v1/apps/{appId}/leads?limit=&after=`: the leads an app of the key's project received, newest first.
    case appLeads(appId: String)
    /// `POST /v1/m/erase`: a device erases its install, proving it holds the erase secret (always 202).
    case ingestErase
    /// `POST /v1/projects/{project}/app-users/erase`: erase a user's app installs by user id or e-mail (202).
    case eraseAppUsers(project: String)
    /// `POST /v1/m/install`: an install's first open with its sources; answers its tier, once per install.
    case ingestInstall
    /// `GET /s2s/v1/apps/{appId}/installs?from=&to=`: an app's installs per UTC day and tier.
    case appInstalls(appId: String)
    /// `POST /s2s/v1/links`: create a go link in the key's project; answers it with its token and URL.
    case createLink
    /// `GET /s2s/v1/links`: the key's project's go links.
    case links
    /// `POST /s2s/v1/proxy-keys`: a proxy key for the key's organization's first-party proxy, shown once.
    case createProxyKey
    /// `GET /s2s/v1/proxy-keys`: the organization's proxy keys (never the keys themselves).
    case proxyKeys
    /// `DELETE /s2s/v1/proxy-keys/{proxyKeyId}`: revokes one of the organization's proxy keys.
    case revokeProxyKey(proxyKeyId: String)
    /// `GET /v1/go/{ref}`: a go link: records a click with a click token, 302 by platform (docs/app-links.md).
    case goLink(ref: String)
    /// `POST /v1/m/postbacks/{kind}/{endpoint}` (with or without a trailing slash, served as is): a copy of an Apple
    /// postback (`skan`, `aak`) through the organization's proxy (proxy key required; docs/postbacks.md).
    case ingestPostback(kind: String, endpoint: String, trailingSlash: Bool)
    /// `GET /s2s/v1/apps/{appId}/postbacks?from=&to=`: an app's signed postbacks per ad network and source identifier.
    case appPostbacks(appId: String)
    /// `GET /s2s/v1/apps/{appId}/conversions?from=&to=`: an app's confirmed conversions per UTC day and install tier.
    case appConversions(appId: String)
    /// `GET /s2s/v1/apps/{appId}/sessions?from=&to=`: an app's sessions, installs, screens and events per UTC day.
    case appSessions(appId: String)
    /// `GET /s2s/v1/apps/{appId}/export?day=`: an app's raw ingest rows of one UTC day as JSON Lines, streamed.
    case appExport(appId: String)

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
        Endpoint(.post, "/s2s/v1/users/{guid}/erasure") { .eraseUser(guid: $0["guid"] ?? "") },
        Endpoint(.post, "/s2s/v1/erasures") { _ in .eraseByEmail },
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
        Endpoint(.post, "/s2s/v1/apps") { _ in .createApp },
        Endpoint(.get, "/s2s/v1/apps") { _ in .apps },
        Endpoint(.get, "/s2s/v1/apps/{appId}") { .app(appId: $0["appId"] ?? "") },
        Endpoint(.get, "/s2s/v1/apps/{appId}/deliveries") { .appDeliveries(appId: $0["appId"] ?? "") },
        Endpoint(.patch, "/s2s/v1/apps/{appId}") { .updateApp(appId: $0["appId"] ?? "") },
        Endpoint(.post, "/s2s/v1/apps/{appId}/store-token") { .rotateStoreToken(appId: $0["appId"] ?? "") },
        Endpoint(.post, "/s2s/v1/apps/{appId}/destinations") { .addDestination(appId: $0["appId"] ?? "") },
        Endpoint(.delete, "/s2s/v1/apps/{appId}/destinations/{destinationId}") {
            .removeDestination(appId: $0["appId"] ?? "", destinationId: $0["destinationId"] ?? "")
        },
        Endpoint(.post, "/public/app-account-token") { _ in .appAccountToken },
        Endpoint(.get, "/s2s/v1/audit/heads") { _ in .auditHeads },
        Endpoint(.get, "/s2s/v1/audit/keys") { _ in .auditKeys },
        Endpoint(.get, "/s2s/v1/reports/payments") { _ in .paymentReport },
        Endpoint(.post, "/v1/m/store/apple/{token}") { .storeNotification(store: .apple, token: $0["token"] ?? "") },
        Endpoint(.post, "/v1/m/store/google/{token}") { .storeNotification(store: .google, token: $0["token"] ?? "") },
        Endpoint(.post, "/v1/m/store/revenuecat/{token}") {
            .storeNotification(store: .revenuecat, token: $0["token"] ?? "")
        },
        Endpoint(.post, "/s2s/v1/campaigns") { _ in .createCampaign },
        Endpoint(.get, "/s2s/v1/campaigns") { _ in .campaigns },
        Endpoint(.post, "/s2s/v1/affiliates") { _ in .createAffiliate },
        Endpoint(.get, "/s2s/v1/affiliates") { _ in .affiliates },
        Endpoint(.get, "/s2s/v1/affiliates/{affiliateId}/statement") {
            .affiliateStatement(affiliateId: $0["affiliateId"] ?? "")
        },
        Endpoint(.get, "/a/{refCode}") { .affiliateLink(refCode: $0["refCode"] ?? "") },
        Endpoint(.post, "/v1/app-store/bind") { _ in .bind },
        Endpoint(.post, "/v1/app-store/assn/{surfaceId}") { .forwardedNotification(surfaceId: $0["surfaceId"] ?? "") },
        Endpoint(.get, "/s2s/v1/users/{guid}/timeline") { .userTimeline(guid: $0["guid"] ?? "") },
        Endpoint(.get, "/s2s/v1/payments/{paymentId}/timeline") {
            .paymentTimeline(paymentId: $0["paymentId"] ?? "")
        },
        Endpoint(.get, "/s2s/v1/reports/handoff") { _ in .handoffReport },
        Endpoint(.post, "/s2s/v1/dashboard-links") { _ in .createDashboardLink },
        Endpoint(.get, "/dashboard/{token}") { .dashboard(token: $0["token"] ?? "") },
        Endpoint(.get, "/v1/m/config/{pk}") { .ingestConfig(publishableKey: $0["pk"] ?? "") },
        Endpoint(.post, "/v1/m/batch") { _ in .ingestBatch },
        Endpoint(.post, "/v1/m/r") { _ in .ingestRecording },
        Endpoint(.get, "/s2s/v1/apps/{appId}/recordings") { .appRecordings(appId: $0["appId"] ?? "") },
        Endpoint(.post, "/v1/m/lead") { _ in .ingestLead },
        Endpoint(.get, "/s2s/v1/apps/{appId}/leads") { .appLeads(appId: $0["appId"] ?? "") },
        Endpoint(.post, "/v1/m/erase") { _ in .ingestErase },
        Endpoint(.post, "/v1/projects/{project}/app-users/erase") { .eraseAppUsers(project: $0["project"] ?? "") },
        Endpoint(.post, "/v1/m/install") { _ in .ingestInstall },
        Endpoint(.get, "/s2s/v1/apps/{appId}/installs") { .appInstalls(appId: $0["appId"] ?? "") },
        Endpoint(.post, "/s2s/v1/links") { _ in .createLink },
        Endpoint(.get, "/s2s/v1/links") { _ in .links },
        Endpoint(.post, "/s2s/v1/proxy-keys") { _ in .createProxyKey },
        Endpoint(.get, "/s2s/v1/proxy-keys") { _ in .proxyKeys },
        Endpoint(.delete, "/s2s/v1/proxy-keys/{proxyKeyId}") { .revokeProxyKey(proxyKeyId: $0["proxyKeyId"] ?? "") },
        Endpoint(.get, "/v1/go/{ref}") { .goLink(ref: $0["ref"] ?? "") },
        Endpoint(.post, "/s2s/v1/apps/{appId}/recordings/replay-links") {
            .createReplayLink(appId: $0["appId"] ?? "")
        },
        Endpoint(.get, "/replay/{token}") { .replay(token: $0["token"] ?? "") },
        Endpoint(.get, "/replay/{token}/events") { .replayEvents(token: $0["token"] ?? "") },
        Endpoint(.get, "/replay/{token}/assets/{sha}") {
            .replayAsset(token: $0["token"] ?? "", sha: $0["sha"] ?? "")
        },
        Endpoint(.get, "/replay-player.js") { _ in .replayPlayerScript },
        Endpoint(.get, "/replay-player.css") { _ in .replayPlayerStyle },
        Endpoint(.post, "/v1/m/postbacks/{kind}/{endpoint}") {
            .ingestPostback(kind: $0["kind"] ?? "", endpoint: $0["endpoint"] ?? "", trailingSlash: false)
        },
        Endpoint(.post, "/v1/m/postbacks/{kind}/{endpoint}/") {
            .ingestPostback(kind: $0["kind"] ?? "", endpoint: $0["endpoint"] ?? "", trailingSlash: true)
        },
        Endpoint(.get, "/s2s/v1/apps/{appId}/postbacks") { .appPostbacks(appId: $0["appId"] ?? "") },
        Endpoint(.get, "/s2s/v1/apps/{appId}/conversions") { .appConversions(appId: $0["appId"] ?? "") },
        Endpoint(.get, "/s2s/v1/apps/{appId}/sessions") { .appSessions(appId: $0["appId"] ?? "") },
        Endpoint(.get, "/s2s/v1/apps/{appId}/export") { .appExport(appId: $0["appId"] ?? "") },
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
             .publicEntitlements, .events, .postPaymentPage, .resolveCode, .apps, .app, .removeDestination,
             .appDeliveries, .campaigns, .affiliates, .affiliateLink, .affiliateStatement,
             .auditHeads, .auditKeys, .paymentReport, .ingestConfig: return 0
        case .userTimeline, .paymentTimeline, .handoffReport, .dashboard: return 0
        case .appRecordings, .replay, .replayEvents, .replayPlayerScript, .replayPlayerStyle: return 0
        case .replayAsset: return 0
        case .proxyKeys, .revokeProxyKey: return 0
        // Up to 20 host names of up to 253 characters.
        case .createProxyKey: return 8192
        // `{"sessionId"}`: 64 bytes of session id, each character possibly escaped.
        case .createReplayLink: return 1024
        case .appLeads: return 0
        // `IngestLeadHandler` caps the inflated body at the same.
        case .ingestLead: return 8192
        // `IngestEraseHandler` caps the inflated body at the same.
        case .ingestErase: return 1024
        // A user id of up to 256 characters and an address of up to 254, each character possibly escaped.
        case .eraseAppUsers: return 8192
        case .appInstalls: return 0
        case .appConversions, .appSessions: return 0
        case .appExport: return 0
        // Any body is ignored.
        case .createDashboardLink: return 1024
        case .captureFingerprint, .resolveByFingerprint, .refundPayment, .appAccountToken, .bind: return 1024
        // Any body is ignored.
        case .eraseUser: return 1024
        case .createPayment, .emailRecoveryRequest, .createCampaign, .createAffiliate, .eraseByEmail: return 4096
        case .createUser, .addDestination: return 8192
        // Three URLs of up to 2048 characters (paywall, tracker, landing), each character possibly escaped.
        case .updateProject: return 16384
        // A service-account key (a PEM of up to 8 KiB, each line break escaped) and the other secrets.
        case .createApp: return 32768
        // The same, and `ingest`: six lists of up to 100 names of 128 characters, each character possibly escaped
        // as a surrogate pair (`IngestSettingsChange`).
        case .updateApp: return 1_048_576
        // Any body is ignored.
        case .rotateStoreToken: return 1024
        case .storeNotification(let store, _): return StoreIntakeLimits.bodyLimit(store)
        // What the App Store's own URL takes: the forwarded body is the same notification.
        case .forwardedNotification: return StoreIntakeLimits.bodyLimit(.apple)
        // 64 KiB on the wire; `IngestBatchHandler` caps the inflated body at the same.
        case .ingestBatch: return 65536
        // 512 KiB on the wire (screenshots travel inside); `RecordingPacketHandler` caps the inflated events at 2 MiB.
        case .ingestRecording: return 524_288
        // 16 KiB on the wire; `IngestInstallHandler` caps the inflated body at the same.
        case .ingestInstall: return 16384
        case .links, .goLink: return 0
        // A fallback URL of up to 2048 characters, each possibly escaped, and short members.
        case .createLink: return 16384
        // A postback is about 1 KiB; its members' longest schema-valid values (text up to 255 characters, each
        // possibly a 12-byte escaped pair) fit 16 KiB.
        case .ingestPostback: return 16384
        case .appPostbacks: return 0
        }
    }

    /// Who may call this route: anyone, or a caller with a live secret key (`Authorization: Bearer sk_live_…`).
    var access: Access {
        switch self {
        case .healthz, .readyz, .openAPI, .docs, .docsScript, .paywallBuyer, .publicEntitlements, .postPaymentPage,
             .captureFingerprint, .resolveByFingerprint, .resolveCode, .emailRecoveryRequest, .appAccountToken,
             .storeNotification, .affiliateLink, .bind, .forwardedNotification, .ingestConfig, .ingestBatch,
             .ingestRecording:
            return .open
        case .ingestInstall:
            return .open
        case .project, .updateProject, .createUser, .createPayment, .refundPayment, .user, .userEntitlements,
             .events, .createApp, .apps, .app, .appDeliveries, .updateApp, .rotateStoreToken, .addDestination,
             .removeDestination, .createCampaign, .campaigns, .createAffiliate, .affiliates, .affiliateStatement,
             .auditHeads, .auditKeys, .paymentReport, .eraseUser, .eraseByEmail:
            return .secretKey
        case .userTimeline, .paymentTimeline, .handoffReport, .createDashboardLink:
            return .secretKey
        case .appRecordings, .appInstalls, .createReplayLink:
            return .secretKey
        case .dashboard, .goLink, .replay, .replayEvents, .replayPlayerScript, .replayPlayerStyle:
            return .open
        case .replayAsset: return .open
        case .createProxyKey, .proxyKeys, .revokeProxyKey: return .secretKey
        case .ingestLead: return .open
        case .ingestErase: return .open
        case .eraseAppUsers: return .secretKey
        case .appLeads, .createLink, .links: return .secretKey
        // The proxy key is checked by the handler (403 `key`, the compact shape).
        case .ingestPostback: return .open
        case .appPostbacks: return .secretKey
        case .appConversions, .appSessions: return .secretKey
        case .appExport: return .secretKey
        }
    }

    /// Whether an organization's first-party proxy may forward this route with its proxy key: go links and app
    /// ingest (`/v1/go/*`, `/v1/m/*`). There, and only there, a valid key makes the forwarded address the client's.
    var servesFirstPartyProxy: Bool {
        if case .goLink = self { return true }
        return isIngest
    }

    /// Whether the route is app ingest (`/v1/m/*` with a publishable key): its errors take the compact shape
    /// `{"ok":false,"code":…}` (`IngestResponse`), 413 included.
    var isIngest: Bool {
        switch self {
        case .ingestConfig, .ingestBatch, .ingestRecording, .ingestLead, .ingestInstall: return true
        case .ingestPostback: return true
        case .ingestErase: return true
        default: return false
        }
    }

    /// Who may call a route.
    enum Access: Sendable, Equatable {
        case open
        /// Server-to-server: a live secret key, rate-limited per key.
        case secretKey
    }
}
