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

    public init(
        postgres: Pool, redis: RedisPool, metrics: Metrics, logger: Logger, defaultBodyLimit: Int = 64 * 1024,
        readinessTimeout: Double = 2
    ) {
        self.postgres = postgres
        self.redis = redis
        self.metrics = metrics
        self.logger = logger
        self.defaultBodyLimit = defaultBodyLimit
        self.readinessTimeout = readinessTimeout
    }
}
