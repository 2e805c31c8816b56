import Commands
import Domain
import Foundation
import HTTPServer
import Redis
import Telemetry

/// Everything a handler may use, built once at start-up and passed to every handler.
///
/// Tests build the same struct with a real Postgres and Redis on throwaway ports.
public struct Environment: Sendable {
    /// Every command handler and read model (product SQL lives there, not here).
    public let model: WriteModel
    public let redis: RedisPool
    public let metrics: Metrics
    public let logger: Logger
    /// Bytes a request body may have on routes that do not set their own limit.
    public let defaultBodyLimit: Int
    /// Seconds `/readyz` waits for Postgres to answer its probe.
    public let readinessTimeout: Double
    /// Projects and secret keys (reads).
    public var projects: ProjectLookup { model.projects }
    /// GCRA budgets in Redis.
    public let rateLimiter: RateLimiter
    /// The budget of each secret key on `/s2s/*`.
    public let s2sLimit: RateLimit
    /// The budget of failed secret-key checks per client IP on `/s2s/*`; once spent, 429 before any key is looked at.
    public let authFailureLimit: RateLimit
    /// The public base URL of this service without a trailing `/` (`PUBLIC_BASE_URL`): links to its own pages, such
    /// as `postPaymentUrl` (`<base>/done/<pageToken>`).
    public let publicBaseURL: String
    /// The budget of each client IP on `GET /public/paywall/buyer`.
    public let paywallBuyerLimit: RateLimit
    /// The budget of each client IP on `GET /public/entitlements`.
    public let publicEntitlementsLimit: RateLimit
    /// The budget of each client IP on `POST /public/handoff/fingerprint`.
    public let fingerprintCaptureLimit: RateLimit
    /// The budget of each client IP on `POST /public/handoff/resolve-by-fingerprint`.
    public let resolveByFingerprintLimit: RateLimit
    /// The budget of each client IP on `GET /public/handoff/resolve`; nil = off (`RESOLVE_LIMITS=off`, benchmarks).
    public let resolveLimit: RateLimit?
    /// The global failed-lookup budget of `GET /public/handoff/resolve`; nil = off (`RESOLVE_LIMITS=off`).
    public let failedLookupBudget: FailedLookupBudget?
    /// The budget of each client IP on `POST /public/handoff/email-recovery/request`.
    public let emailRecoveryLimit: RateLimit
    /// The budget of each client IP on `POST /public/app-account-token`.
    public let appAccountTokenLimit: RateLimit
    /// The budget of each client IP on `GET /a/{refCode}` (affiliate links).
    public let affiliateLinkLimit: RateLimit
    /// The budget of each client IP on `GET /v1/go/{ref}` (go links).
    public let goLinkLimit: RateLimit
    /// The budget of each client IP on `POST /v1/app-store/bind`.
    public let bindLimit: RateLimit
    /// The budget of each store token on `POST /v1/m/store/*/{token}`.
    public let storeLimit: RateLimit
    /// The budget of each surface on `POST /v1/app-store/assn/{surfaceId}`.
    public let surfaceLimit: RateLimit
    /// How old or far ahead a forwarded notification's `x-ea-timestamp` may be (`SURFACE_TIMESTAMP_MAX_AGE_HOURS`).
    public let forwardedTimestampWindow: ForwardedTimestampWindow
    /// How store notifications are checked: Apple's trust roots, Google's keys.
    public let storeChecks: StoreChecks
    /// The budget of each client IP on `GET /v1/m/config/{pk}`.
    public let ingestConfigLimit: RateLimit
    /// The budget of `POST /v1/m/lead`, counted per project and client IP and, separately, per project and install.
    public let ingestLeadLimit: RateLimit
    /// The budget of each client IP on `POST /v1/m/erase`.
    public let ingestEraseLimit: RateLimit
    /// The budget of each install (app and `inst`) on `POST /v1/m/batch`.
    public let ingestBatchInstallLimit: RateLimit
    /// The budget of each client IP on `POST /v1/m/batch`, whatever the app.
    public let ingestBatchAddressLimit: RateLimit
    /// Stored app-ingest batches per project and UTC day (`INGEST_DAILY_BATCHES`); more are `stored:false, quota`.
    public let ingestDailyBatches: Int
    /// The budget of each client IP on `POST /v1/m/r` (recording packets).
    public let ingestRecordingLimit: RateLimit
    /// The current time; tests inject their own to expire passes.
    public let clock: @Sendable () -> Date
    /// Which client addresses share a per-client budget: IPv4 by address, IPv6 by prefix (`IPV6_PREFIX_LENGTH`).
    public let clientGrouping: ClientAddressGrouping

    /// 30 requests per minute per client IP; without Redis, 503 (fail closed).
    public static let defaultPaywallBuyerLimit = RateLimit.perWindow(
        name: "paywall-buyer", count: 30, seconds: 60, onFailure: .closed)

    /// 60 requests per minute per client IP; without Redis, 503 (fail closed).
    public static let defaultPublicEntitlementsLimit = RateLimit.perWindow(
        name: "public-entitlements", count: 60, seconds: 60, onFailure: .closed)

    /// 30 fingerprints per minute per client IP (a page sends one per visit); without Redis, 503 (fail closed).
    public static let defaultFingerprintCaptureLimit = RateLimit.perWindow(
        name: "fingerprint-capture", count: 30, seconds: 60, onFailure: .closed)

    /// 10 requests per minute per client IP (DESIGN §6); without Redis, 503 (fail closed).
    public static let defaultResolveByFingerprintLimit = RateLimit.perWindow(
        name: "resolve-by-fingerprint", count: 10, seconds: 60, onFailure: .closed)
    /// 10 requests per minute per client IP; without Redis, 503 (fail closed).
    public static let defaultResolveLimit = RateLimit.perWindow(
        name: "resolve", count: 10, seconds: 60, onFailure: .closed)

    /// 300 failed lookups per minute in the whole deployment; an IP that failed stays suspect for 10 minutes.
    public static let defaultFailedLookupBudget = FailedLookupBudget(
        name: "resolve", failures: 300, windowSeconds: 60, rememberSeconds: 600)
    /// 5 requests per 15 minutes per client IP; without Redis, 503 (fail closed).
    public static let defaultEmailRecoveryLimit = RateLimit.perWindow(
        name: "email-recovery", count: 5, seconds: 15 * 60, onFailure: .closed)

    /// 30 requests per minute per client IP (issue 14); without Redis, 503 (fail closed).
    public static let defaultAppAccountTokenLimit = RateLimit.perWindow(
        name: "app-account-token", count: 30, seconds: 60, onFailure: .closed)

    /// 60 followed affiliate links per minute per client IP (issue 15); without Redis, 503 (fail closed).
    public static let defaultAffiliateLinkLimit = RateLimit.perWindow(
        name: "affiliate-link", count: 60, seconds: 60, onFailure: .closed)

    /// 60 followed go links per minute per client IP (issue 21); without Redis, 503 (fail closed).
    public static let defaultGoLinkLimit = RateLimit.perWindow(
        name: "go-link", count: 60, seconds: 60, onFailure: .closed)

    /// 10 binds per minute per client IP (issue 15); without Redis, 503 (fail closed).
    public static let defaultBindLimit = RateLimit.perWindow(
        name: "bind", count: 10, seconds: 60, onFailure: .closed)

    /// 20 failed secret-key checks per minute per client IP; without Redis, failures are not counted (S2S stays up).
    public static let defaultAuthFailureLimit = RateLimit.perWindow(
        name: "auth-failures", count: 20, seconds: 60, onFailure: .openWithCap(perProcessPerSecond: 1000))

    /// 30 notifications per second per store token; without Redis, 300 per second per process (fail open: a Redis
    /// outage must not lose a store's notification, and the stores retry a 503 only for hours).
    public static let defaultStoreLimit = RateLimit(
        name: "store", perSecond: 30, burst: 30, onFailure: .openWithCap(perProcessPerSecond: 300))

    /// 30 forwarded notifications per second per surface, like a store URL; without Redis, 300 per second per process
    /// (fail open: a forwarding server's retries are finite).
    public static let defaultSurfaceLimit = RateLimit(
        name: "surface", perSecond: 30, burst: 30, onFailure: .openWithCap(perProcessPerSecond: 300))

    /// 60 config fetches per minute per client IP (an SDK fetches once per start and caches 5 minutes); without
    /// Redis, 503 `unavailable` (fail closed, like every public limit).
    public static let defaultIngestConfigLimit = RateLimit.perWindow(
        name: "ingest-config", count: 60, seconds: 60, onFailure: .closed)

    /// 600 recording packets per minute per client IP (an SDK sends one every few seconds while recording; IPs shared
    /// by many devices need room); without Redis, 503 `unavailable` (fail closed, like every public limit).
    public static let defaultIngestRecordingLimit = RateLimit.perWindow(
        name: "ingest-recording", count: 600, seconds: 60, onFailure: .closed)
    /// 3 leads per minute (per project and client IP, and per project and install); without Redis, 503
    /// `unavailable` (fail closed, like every public limit).
    public static let defaultIngestLeadLimit = RateLimit.perWindow(
        name: "ingest-lead", count: 3, seconds: 60, onFailure: .closed)
    /// 10 device erasures per minute per client IP (issue 20); without Redis, 503 `unavailable` (fail closed, like
    /// every public limit: the proof it checks is a secret).
    public static let defaultIngestEraseLimit = RateLimit.perWindow(
        name: "ingest-erase", count: 10, seconds: 60, onFailure: .closed)

    /// 60 batches per minute per install (an SDK flushes every 15 s by default); without Redis, 2000 per second per
    /// process (fail open, like the daily quota: the limit protects capacity, not a secret).
    public static let defaultIngestBatchInstallLimit = RateLimit.perWindow(
        name: "ingest-batch-install", count: 60, seconds: 60, onFailure: .openWithCap(perProcessPerSecond: 2000))

    /// 600 batches per minute per client IP (IPv6 by prefix; many devices may share an address behind NAT); without
    /// Redis, 2000 per second per process.
    public static let defaultIngestBatchAddressLimit = RateLimit.perWindow(
        name: "ingest-batch-ip", count: 600, seconds: 60, onFailure: .openWithCap(perProcessPerSecond: 2000))

    /// A million stored batches per project and day.
    public static let defaultIngestDailyBatches = 1_000_000

    /// 100 requests per second per key, bursts of 200; without Redis, 200 per second per process.
    public static let defaultS2SLimit = RateLimit(
        name: "s2s", perSecond: 100, burst: 200, onFailure: .openWithCap(perProcessPerSecond: 200))

    public init(
        model: WriteModel, redis: RedisPool, metrics: Metrics, logger: Logger, defaultBodyLimit: Int = 64 * 1024,
        readinessTimeout: Double = 2, s2sLimit: RateLimit = Environment.defaultS2SLimit,
        authFailureLimit: RateLimit = Environment.defaultAuthFailureLimit,
        paywallBuyerLimit: RateLimit = Environment.defaultPaywallBuyerLimit,
        clock: @escaping @Sendable () -> Date = { Date() }, publicBaseURL: String = "http://127.0.0.1:8080",
        publicEntitlementsLimit: RateLimit = Environment.defaultPublicEntitlementsLimit,
        fingerprintCaptureLimit: RateLimit = Environment.defaultFingerprintCaptureLimit,
        resolveByFingerprintLimit: RateLimit = Environment.defaultResolveByFingerprintLimit,
        resolveLimit: RateLimit? = Environment.defaultResolveLimit,
        failedLookupBudget: FailedLookupBudget? = Environment.defaultFailedLookupBudget,
        emailRecoveryLimit: RateLimit = Environment.defaultEmailRecoveryLimit,
        clientGrouping: ClientAddressGrouping = ClientAddressGrouping(),
        storeLimit: RateLimit = Environment.defaultStoreLimit, storeChecks: StoreChecks = StoreChecks(),
        appAccountTokenLimit: RateLimit = Environment.defaultAppAccountTokenLimit,
        affiliateLinkLimit: RateLimit = Environment.defaultAffiliateLinkLimit,
        bindLimit: RateLimit = Environment.defaultBindLimit,
        surfaceLimit: RateLimit = Environment.defaultSurfaceLimit,
        forwardedTimestampWindow: ForwardedTimestampWindow = .standard,
        ingestConfigLimit: RateLimit = Environment.defaultIngestConfigLimit,
        ingestDailyBatches: Int = Environment.defaultIngestDailyBatches,
        ingestRecordingLimit: RateLimit = Environment.defaultIngestRecordingLimit,
        ingestLeadLimit: RateLimit = Environment.defaultIngestLeadLimit,
        ingestEraseLimit: RateLimit = Environment.defaultIngestEraseLimit,
        ingestBatchInstallLimit: RateLimit = Environment.defaultIngestBatchInstallLimit,
        ingestBatchAddressLimit: RateLimit = Environment.defaultIngestBatchAddressLimit,
        goLinkLimit: RateLimit = Environment.defaultGoLinkLimit
    ) {
        self.goLinkLimit = goLinkLimit
        self.ingestRecordingLimit = ingestRecordingLimit
        self.ingestBatchInstallLimit = ingestBatchInstallLimit
        self.ingestBatchAddressLimit = ingestBatchAddressLimit
        self.ingestLeadLimit = ingestLeadLimit
        self.ingestEraseLimit = ingestEraseLimit
        self.ingestConfigLimit = ingestConfigLimit
        self.ingestDailyBatches = ingestDailyBatches
        self.model = model
        self.redis = redis
        self.metrics = metrics
        self.logger = logger
        self.defaultBodyLimit = defaultBodyLimit
        self.readinessTimeout = readinessTimeout
        self.fingerprintCaptureLimit = fingerprintCaptureLimit
        self.resolveByFingerprintLimit = resolveByFingerprintLimit
        self.emailRecoveryLimit = emailRecoveryLimit
        self.publicBaseURL = publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        self.paywallBuyerLimit = paywallBuyerLimit
        self.clock = clock
        self.publicEntitlementsLimit = publicEntitlementsLimit
        self.resolveLimit = resolveLimit
        self.failedLookupBudget = failedLookupBudget
        self.rateLimiter = RateLimiter(redis: redis, lookupPepper: model.identity?.secrets.lookupPepper)
        self.s2sLimit = s2sLimit
        self.authFailureLimit = authFailureLimit
        self.clientGrouping = clientGrouping
        self.storeLimit = storeLimit
        self.storeChecks = storeChecks
        self.appAccountTokenLimit = appAccountTokenLimit
        self.affiliateLinkLimit = affiliateLinkLimit
        self.bindLimit = bindLimit
        self.surfaceLimit = surfaceLimit
        self.forwardedTimestampWindow = forwardedTimestampWindow
    }

    /// The key every per-client limit counts `request` under: its client IP, an IPv6 one cut to its prefix
    /// (`ClientAddressGrouping.key(for:)`). Every per-IP rate limit and budget takes its key from here.
    func clientKey(_ request: Request) -> String {
        clientGrouping.key(for: request.clientIP)
    }

    /// The app commands and reads, or 503 when this server has no identity secrets (app secrets are sealed).
    func apps() throws -> AppModel {
        guard let apps = model.apps else {
            throw APIError.unavailable("apps are not configured on this server", retryAfterSeconds: 60)
        }
        return apps
    }

    /// The surface commands and reads, or 503 when this server has no identity secrets (surface secrets are sealed).
    func surfaces() throws -> SurfaceModel {
        guard let surfaces = model.surfaces else {
            throw APIError.unavailable("surfaces are not configured on this server", retryAfterSeconds: 60)
        }
        return surfaces
    }

    /// The buyer-identity commands and reads, or 503 when this server has no identity secrets.
    func identity() throws -> IdentityModel {
        guard let identity = model.identity else {
            throw APIError.unavailable("buyer identity is not configured on this server", retryAfterSeconds: 60)
        }
        return identity
    }
}
