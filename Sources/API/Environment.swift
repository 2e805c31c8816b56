import EventStore
import Foundation
import Postgres
import Redis
import Telemetry

/// Everything a handler may use, built once at start-up and passed to every handler.
///
/// Tests build the same struct with a real Postgres and Redis on throwaway ports.
public struct Environment: Sendable {
    public let postgres: Pool
    public let redis: RedisPool
    public let metrics: Metrics
    public let logger: Logger
    /// Bytes a request body may have on routes that do not set their own limit.
    public let defaultBodyLimit: Int
    /// Seconds `/readyz` waits for Postgres to answer its probe.
    public let readinessTimeout: Double
    /// Organizations, projects and secret keys (commands and reads) over `postgres`.
    public let tenants: TenantDirectory
    /// GCRA budgets in Redis.
    public let rateLimiter: RateLimiter
    /// The budget of each secret key on `/s2s/*`.
    public let s2sLimit: RateLimit
    /// Buyers (commands and reads); nil when the identity secrets are not configured, and then the identity
    /// endpoints answer 503.
    public let buyers: BuyerDirectory?
    /// Payments and their codes; nil without the identity secrets (then `POST /s2s/v1/payments` answers 503).
    public let payments: PaymentDirectory?
    /// The public base URL of this service without a trailing `/` (`PUBLIC_BASE_URL`): links to its own pages, such
    /// as `postPaymentUrl` (`<base>/done/<pageToken>`).
    public let publicBaseURL: String
    /// The identity secrets (`HANDOFF_MASTER_KEY`, `HANDOFF_LOOKUP_PEPPER`, `HANDOFF_PASS_KEYS`), or nil.
    public let identity: IdentitySecrets?
    /// The budget of each client IP on `GET /public/paywall/buyer`.
    public let paywallBuyerLimit: RateLimit
    /// The budget of each client IP on `GET /public/entitlements`.
    public let publicEntitlementsLimit: RateLimit
    /// The post-payment pages (`GET /done/<token>`); nil without the identity secrets (then every page is the 404).
    public let pages: PostPaymentPages?
    /// Browser fingerprints (capture and resolve); nil without the identity secrets (then both answer 503).
    public let fingerprints: FingerprintDirectory?
    /// The budget of each client IP on `POST /public/handoff/fingerprint`.
    public let fingerprintCaptureLimit: RateLimit
    /// The budget of each client IP on `POST /public/handoff/resolve-by-fingerprint`.
    public let resolveByFingerprintLimit: RateLimit
    /// Handoff codes and install tokens (mint, redeem); nil without the identity secrets (resolve answers 503).
    public let handoffCodes: HandoffCodes?
    /// The budget of each client IP on `GET /public/handoff/resolve`; nil = off (`RESOLVE_LIMITS=off`, benchmarks).
    public let resolveLimit: RateLimit?
    /// The global failed-lookup budget of `GET /public/handoff/resolve`; nil = off (`RESOLVE_LIMITS=off`).
    public let failedLookupBudget: FailedLookupBudget?
    /// The budget of each client IP on `POST /public/handoff/email-recovery/request`.
    public let emailRecoveryLimit: RateLimit
    /// E-mail recovery requests; nil without the identity secrets (then the endpoint answers 503).
    public let recovery: EmailRecoveryDirectory?
    /// The current time; tests inject their own to expire passes.
    public let clock: @Sendable () -> Date

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

    /// 100 requests per second per key, bursts of 200; without Redis, 200 per second per process.
    public static let defaultS2SLimit = RateLimit(
        name: "s2s", perSecond: 100, burst: 200, onFailure: .openWithCap(perProcessPerSecond: 200))

    public init(
        postgres: Pool, redis: RedisPool, metrics: Metrics, logger: Logger, defaultBodyLimit: Int = 64 * 1024,
        readinessTimeout: Double = 2, s2sLimit: RateLimit = Environment.defaultS2SLimit,
        identity: IdentitySecrets? = nil, paywallBuyerLimit: RateLimit = Environment.defaultPaywallBuyerLimit,
        clock: @escaping @Sendable () -> Date = { Date() }, publicBaseURL: String = "http://127.0.0.1:8080",
        publicEntitlementsLimit: RateLimit = Environment.defaultPublicEntitlementsLimit,
        fingerprintCaptureLimit: RateLimit = Environment.defaultFingerprintCaptureLimit,
        resolveByFingerprintLimit: RateLimit = Environment.defaultResolveByFingerprintLimit,
        resolveLimit: RateLimit? = Environment.defaultResolveLimit,
        failedLookupBudget: FailedLookupBudget? = Environment.defaultFailedLookupBudget,
        emailRecoveryLimit: RateLimit = Environment.defaultEmailRecoveryLimit
    ) {
        self.postgres = postgres
        self.redis = redis
        self.metrics = metrics
        self.logger = logger
        self.defaultBodyLimit = defaultBodyLimit
        self.readinessTimeout = readinessTimeout
        let store = EventStore(pool: postgres, projections: ProjectionRegistry.service)
        self.tenants = TenantDirectory(store: store)
        self.buyers = identity.map { BuyerDirectory(store: store, secrets: $0) }
        self.payments = identity.map { PaymentDirectory(store: store, secrets: $0) }
        let tenants = self.tenants
        self.pages = identity.map { PostPaymentPages(store: store, tenants: tenants, secrets: $0) }
        self.fingerprints = identity.map { FingerprintDirectory(store: store, secrets: $0) }
        self.fingerprintCaptureLimit = fingerprintCaptureLimit
        self.resolveByFingerprintLimit = resolveByFingerprintLimit
        self.recovery = identity.map { EmailRecoveryDirectory(store: store, secrets: $0) }
        self.emailRecoveryLimit = emailRecoveryLimit
        self.publicBaseURL = publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        self.identity = identity
        self.paywallBuyerLimit = paywallBuyerLimit
        self.clock = clock
        self.publicEntitlementsLimit = publicEntitlementsLimit
        self.handoffCodes = payments?.codes
        self.resolveLimit = resolveLimit
        self.failedLookupBudget = failedLookupBudget
        self.rateLimiter = RateLimiter(redis: redis, lookupPepper: identity?.lookupPepper)
        self.s2sLimit = s2sLimit
    }
}
