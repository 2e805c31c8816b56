import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry

/// The API server with its pools and metrics, started from a `Configuration`; `handoff serve` and the tests use it.
public final class RunningAPI: Sendable {
    public let environment: Environment
    private let server: Server
    private let metricsListener: MetricsListener?
    private let logger: Logger

    /// Builds pools (lazily connecting, so Postgres or Redis may be down at start), registers the pool and
    /// in-flight gauges, and starts listening: the API on `HTTP_HOST`:`HTTP_PORT`, `/metrics` on `METRICS_ADDRESS`.
    /// Throws when either cannot be bound (then neither listens).
    public init(configuration: Configuration, logger: Logger) throws {
        self.logger = logger
        let postgres = Pool(configuration: PostgresConfiguration(
            url: configuration.databaseURL,
            poolSize: configuration.databasePoolSize,
            statementTimeoutMilliseconds: configuration.databaseStatementTimeoutMilliseconds,
            preparedStatements: configuration.databasePreparedStatements))
        let redisTimeout = Double(configuration.redisTimeoutMilliseconds) / 1000
        let redis = RedisPool(configuration: try RedisConfiguration(
            url: configuration.redisURL,
            poolSize: configuration.redisPoolSize,
            connectTimeout: redisTimeout,
            commandTimeout: redisTimeout, sentinel: configuration.redisSentinel))
        let metrics = Metrics()
        let clientGrouping = ClientAddressGrouping(ipv6PrefixLength: configuration.ipv6PrefixLength)
        let identity = configuration.identity
        if identity == nil {
            logger.warning("buyer identity endpoints disabled (they answer 503): set "
                + configuration.missingIdentityVariables.joined(separator: ", "))
        }
        if !configuration.resolveLimits {
            logger.warning("RESOLVE_LIMITS=off: GET /public/handoff/resolve has no per-IP limit and no failed-lookup "
                + "budget; for bench/resolve only, never in production")
        }
        var googleKeys: GoogleOIDCKeys?
        if let source = configuration.googleOIDCJWKS {
            googleKeys = try GoogleOIDCKeys(source: source, now: Date())
        } else {
            logger.warning("GOOGLE_OIDC_JWKS is unset: Google Play pushes to apps with a push service account are "
                + "refused (401)")
        }
        let factor = configuration.rateLimitMultiplier
        if factor != 1 {
            logger.warning("RATE_LIMIT_MULTIPLIER=\(factor): every rate limit is raised; for tests only")
        }
        let replica = configuration.databaseReadURL.map { url in
            Pool(configuration: PostgresConfiguration(
                url: url, poolSize: configuration.databasePoolSize,
                statementTimeoutMilliseconds: configuration.databaseStatementTimeoutMilliseconds,
                preparedStatements: configuration.databasePreparedStatements))
        }
        let reads = ReadRouting(primary: postgres, replica: replica, positions: RedisWritePositions(redis: redis))
        environment = Environment(
            model: WriteModel(pool: postgres, secrets: identity, forwardAddresses: ForwardAddresses(
                allowed: configuration.forwardAllowedNetworks), commandBatch: configuration.commandBatchSize,
                reads: reads),
            redis: redis, metrics: metrics, logger: logger,
            defaultBodyLimit: configuration.httpMaxBodyBytes,
            s2sLimit: Environment.defaultS2SLimit.scaled(by: factor),
            authFailureLimit: Environment.defaultAuthFailureLimit.scaled(by: factor),
            paywallBuyerLimit: Environment.defaultPaywallBuyerLimit.scaled(by: factor),
            publicBaseURL: configuration.publicBaseURL,
            publicEntitlementsLimit: Environment.defaultPublicEntitlementsLimit.scaled(by: factor),
            fingerprintCaptureLimit: Environment.defaultFingerprintCaptureLimit.scaled(by: factor),
            resolveByFingerprintLimit: Environment.defaultResolveByFingerprintLimit.scaled(by: factor),
            resolveLimit: configuration.resolveLimits ? Environment.defaultResolveLimit.scaled(by: factor) : nil,
            failedLookupBudget: configuration.resolveLimits ? FailedLookupBudget(
                name: "resolve", failures: configuration.resolveFailedLookupsPerMinute * factor, windowSeconds: 60,
                rememberSeconds: 600) : nil,
            emailRecoveryLimit: Environment.defaultEmailRecoveryLimit.scaled(by: factor),
            clientGrouping: clientGrouping,
            storeLimit: Environment.defaultStoreLimit.scaled(by: factor),
            storeChecks: StoreChecks(appleRoots: configuration.appleTrustRoots, googleKeys: googleKeys),
            appAccountTokenLimit: Environment.defaultAppAccountTokenLimit.scaled(by: factor),
            affiliateLinkLimit: Environment.defaultAffiliateLinkLimit.scaled(by: factor),
            bindLimit: Environment.defaultBindLimit.scaled(by: factor),
            surfaceLimit: Environment.defaultSurfaceLimit.scaled(by: factor),
            forwardedTimestampWindow: ForwardedTimestampWindow(maxAgeHours: configuration.surfaceTimestampMaxAgeHours),
            ingestConfigLimit: Environment.defaultIngestConfigLimit.scaled(by: factor),
            ingestDailyBatches: configuration.ingestDailyBatches,
            ingestRecordingLimit: Environment.defaultIngestRecordingLimit.scaled(by: factor),
            ingestLeadLimit: Environment.defaultIngestLeadLimit.scaled(by: factor),
            ingestEraseLimit: Environment.defaultIngestEraseLimit.scaled(by: factor),
            ingestBatchInstallLimit: Environment.defaultIngestBatchInstallLimit.scaled(by: factor),
            ingestBatchAddressLimit: Environment.defaultIngestBatchAddressLimit.scaled(by: factor))
        server = Server(
            configuration: ServerConfiguration(
                host: configuration.httpHost,
                port: configuration.httpPort,
                threadCount: configuration.httpThreads,
                connectionTimeout: configuration.httpConnectionTimeoutSeconds,
                connectionLimit: configuration.httpConnectionLimit,
                perIPConnectionLimit: configuration.httpConnectionsPerIP,
                headerTimeout: Double(configuration.httpHeaderTimeoutSeconds),
                clientGrouping: clientGrouping,
                trustedProxies: configuration.trustedProxies),
            responder: APIResponder(environment: environment))
        let server = self.server
        metrics.register(Metrics.Gauge(
            name: "handoff_pool_connections",
            help: "Connections of each pool by state (size is the pool's maximum).",
            read: {
                let pg = postgres.stats
                let rd = redis.stats
                return [
                    .init(labels: [("pool", "postgres"), ("state", "size")], value: Double(pg.size)),
                    .init(labels: [("pool", "postgres"), ("state", "open")], value: Double(pg.open)),
                    .init(labels: [("pool", "postgres"), ("state", "in_use")], value: Double(pg.inUse)),
                    .init(labels: [("pool", "postgres"), ("state", "waiting")], value: Double(pg.waiting)),
                    .init(labels: [("pool", "redis"), ("state", "size")], value: Double(rd.size)),
                    .init(labels: [("pool", "redis"), ("state", "open")], value: Double(rd.open)),
                    .init(labels: [("pool", "redis"), ("state", "in_use")], value: Double(rd.inUse)),
                    .init(labels: [("pool", "redis"), ("state", "waiting")], value: Double(rd.waiting)),
                ]
            }))
        metrics.register(Metrics.Gauge(
            name: "handoff_http_in_flight_requests",
            help: "Requests being handled right now.",
            read: { [.init(labels: [], value: Double(server.inFlight))] }))
        let headerTimeout = configuration.httpHeaderTimeoutSeconds
        metricsListener = try configuration.metricsAddress.map {
            try MetricsListener(address: $0, metrics: metrics, headerTimeoutSeconds: headerTimeout)
        }
        do {
            try server.start()
        } catch {
            metricsListener?.stop()
            throw error
        }
        let host = ListenAddress.urlHost(configuration.httpHost)
        logger.info("listening", ["address": .string("http://\(host):\(server.port)")])
        if let address = configuration.metricsAddress, let metricsListener {
            let url = "http://\(ListenAddress.urlHost(address.host)):\(metricsListener.port)/metrics"
            logger.info("metrics listening", ["address": .string(url)])
        }
    }

    /// The bound port (differs from the configured one when that was 0).
    public var port: Int { server.port }

    /// The port `/metrics` is served on, nil when `METRICS_ADDRESS` is `off`.
    public var metricsPort: Int? { metricsListener?.port }

    /// Stops accepting, lets in-flight requests finish for up to `drainSeconds`, then closes the pools.
    public func stop(drainSeconds: Double) {
        logger.info("draining", ["in_flight": .int(server.inFlight)])
        server.stop(drainTimeout: drainSeconds)
        metricsListener?.stop()
        environment.model.close()
        environment.redis.close()
        logger.info("stopped")
        logger.flush()
    }
}
