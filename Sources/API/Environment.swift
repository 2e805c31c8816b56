import EventStore
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

    /// 100 requests per second per key, bursts of 200; without Redis, 200 per second per process.
    public static let defaultS2SLimit = RateLimit(
        name: "s2s", perSecond: 100, burst: 200, onFailure: .openWithCap(perProcessPerSecond: 200))

    public init(
        postgres: Pool, redis: RedisPool, metrics: Metrics, logger: Logger, defaultBodyLimit: Int = 64 * 1024,
        readinessTimeout: Double = 2, s2sLimit: RateLimit = Environment.defaultS2SLimit
    ) {
        self.postgres = postgres
        self.redis = redis
        self.metrics = metrics
        self.logger = logger
        self.defaultBodyLimit = defaultBodyLimit
        self.readinessTimeout = readinessTimeout
        self.tenants = TenantDirectory(store: EventStore(pool: postgres, projections: ProjectionRegistry.service))
        self.rateLimiter = RateLimiter(redis: redis)
        self.s2sLimit = s2sLimit
    }
}
