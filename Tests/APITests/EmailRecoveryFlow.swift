@testable import API
import Commands
import EventStore
import Foundation
import HTTPClient
import HTTPServer
import Postgres
import Redis
import Synchronization
import Telemetry
import Testing
import TestSupport
import Workers

/// A tenant, the API edge over its database, and an in-process worker (dispatcher, relay, consumer) with a clock.
final class EmailRecoveryFlow: @unchecked Sendable {
    static let path = "/public/handoff/email-recovery/request"

    let fixture: TenantFixture
    let tenant: (org: String, project: String, key: String)
    let sink: SMTPSink
    let redis: ScratchRedis
    let clock: RecoveryTestClock
    let api: APIResponder
    let pool: Pool
    let redisPool: RedisPool
    let relay: JobRelay
    let consumer: JobConsumer
    let registry: JobRegistry

    /// `smtp` replaces the sink as the worker's SMTP server (the sink still runs); `logger` is the API's (default:
    /// errors only, to /dev/null).
    init(workerSecrets: IdentitySecrets? = TestIdentity.secrets(),
         apiRedisURL: String? = nil, returnScheme: String? = "myapp", settings: [String] = [],
         smtp: SMTPConfiguration? = nil, logger: Logger? = nil) throws {
        fixture = try TenantFixture.migrated()
        tenant = try fixture.tenant((returnScheme.map { ["--return-scheme", $0] } ?? []) + settings)
        sink = try SMTPSink()
        redis = try ScratchRedis()
        let box = RecoveryTestClock()
        self.clock = box
        let clock: @Sendable () -> Date = { box.now }
        let environment = Environment(
            model: WriteModel(
                pool: Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 2)),
                secrets: TestIdentity.secrets()),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try apiRedisURL ?? TestEnvironment.redisURL(), poolSize: 2, connectTimeout: 0.3,
                commandTimeout: 0.3)),
            metrics: Metrics(), logger: logger ?? Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            authFailureLimit: TestIdentity.uniqueLimit(count: 20),
            clock: clock, publicBaseURL: "https://handoff.example.com",
            emailRecoveryLimit: Self.limit)
        api = APIResponder(environment: environment)
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 3))
        self.pool = pool
        redisPool = RedisPool(configuration: try RedisConfiguration(url: redis.url, poolSize: 3, connectTimeout: 1,
                                                                    commandTimeout: 3))
        let settings = RecoveryMailSettings(
            smtp: SMTPClient(configuration: smtp ?? SMTPConfiguration(url: sink.url)),
            fromAddress: "noreply@handoff.test",
            fromName: "Handoff",
            sender: SendRecoveryMail(workerSecrets.map {
                IdentityContext(log: EventLog(pool: pool, projections: ProjectionRegistry.service), secrets: $0)
            }),
            publicBaseURL: "https://handoff.example.com")
        registry = JobRegistry([RecoveryMailJob.kind(settings: settings)])
        relay = JobRelay(pool: pool, redis: redisPool, registry: registry, clock: clock)
        consumer = JobConsumer(queue: RecoveryMailJob.queue, name: "test", store: EventLog(
            pool: pool, projections: ProjectionRegistry.service), redis: redisPool, registry: registry,
            visibilityTimeout: 60, clock: clock, blockMilliseconds: 100)
    }

    deinit {
        pool.close()
        redisPool.close()
    }

    /// The production limit (`Environment.defaultEmailRecoveryLimit`: rate, burst and failure policy) under a name
    /// of this test's own, so tests sharing the Redis server do not share a budget.
    static var limit: RateLimit {
        let production = Environment.defaultEmailRecoveryLimit
        return RateLimit(name: "recovery-test-\(UInt64.random(in: 0...UInt64.max))",
                         perSecond: production.perSecond, burst: production.burst,
                         onFailure: production.onFailure)
    }

    func advance(_ seconds: Double) { clock.advance(seconds) }

    func request(_ body: String, ip: String = "198.51.100.20", language: String? = nil) -> Response {
        var headers = [("Content-Type", "application/json")]
        if let language { headers.append(("Accept-Language", language)) }
        return api.respond(to: Request(method: .post, path: Self.path, query: [:],
                                       headers: Headers(headers), body: Array(body.utf8), clientIP: ip,
                                       remoteAddress: ip))
    }

    func body(email: String, project: String? = nil) -> String {
        #"{"projectId":"\#(project ?? tenant.project)","email":"\#(email)"}"#
    }

    /// A buyer with `email` and one payment; returns its guid.
    func buyerWithPayment(email: String) throws -> String {
        let user = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                              body: #"{"email":"\#(email)"}"#))
        let guid = try #require(jsonObject(user)["guid"] as? String)
        let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                              body: PaymentTests.body(guid: guid, paymentId: "pi_1")))
        #expect(paid.status == 200, "\(bodyText(paid))")
        return guid
    }

    /// Runs the dispatcher until `jobs` jobs exist, then the relay once (no consumer).
    func dispatchAndRelay(jobs expected: Int) throws {
        let connection = try Connection(configuration: PostgresConfiguration(url: fixture.database.appURL))
        defer { connection.close() }
        #expect(try Subscription.tryLock(name: JobDispatcher.subscriptionName, on: connection))
        let registry = self.registry
        let now = clock.now
        let deadline = Date().addingTimeInterval(20)
        // Other tests' open transactions hold the global horizon back for a moment: poll until the jobs exist.
        while try JobStore.list(state: nil, org: nil, limit: 1000, on: fixture.ownerConnection()).count < expected {
            guard Date() < deadline else {
                Issue.record("the dispatcher made no \(expected) jobs within 20 s")
                return
            }
            let handled = try Subscription.processBatch(name: JobDispatcher.subscriptionName, limit: 100,
                                                        on: connection) { events, connection in
                _ = try JobDispatcher.dispatch(events, registry: registry, now: now, on: connection)
            }
            if handled == 0 { usleep(50_000) }
        }
        _ = try relay.relayDue()
    }

    /// Runs the dispatcher, relay and consumer until `jobs` jobs exist and none is pending or enqueued.
    func work(jobs expected: Int) throws {
        let connection = try Connection(configuration: PostgresConfiguration(url: fixture.database.appURL))
        defer { connection.close() }
        #expect(try Subscription.tryLock(name: JobDispatcher.subscriptionName, on: connection))
        let registry = self.registry
        let now = clock.now
        let deadline = Date().addingTimeInterval(20)
        // Other tests' open transactions hold the global horizon back for a moment: poll until all are done.
        while Date() < deadline {
            let handled = try Subscription.processBatch(name: JobDispatcher.subscriptionName, limit: 100,
                                                        on: connection) { events, connection in
                _ = try JobDispatcher.dispatch(events, registry: registry, now: now, on: connection)
            }
            if handled == 0 { usleep(50_000) }
            _ = try relay.relayDue()
            _ = try consumer.step()
            let count = try JobStore.list(state: nil, org: nil, limit: 1000, on: fixture.ownerConnection()).count
            if count >= expected, try pending() == 0 { return }
        }
        Issue.record("the jobs did not finish within 20 s")
    }

    /// Jobs not yet done or dead.
    func pending() throws -> Int {
        // The operator's view of the outbox: the owner role (the application role has no privilege on `jobs`).
        let counts = try JobStore.counts(on: fixture.ownerConnection())
        return (counts[.pending] ?? 0) + (counts[.enqueued] ?? 0)
    }

    func jobs() throws -> [Job] {
        try JobStore.list(state: nil, org: nil, limit: 100, on: fixture.ownerConnection()).reversed()
    }

    func events(_ type: String, org: String) throws -> Int {
        try fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
            [.text(org), .text(type)]).rows[0].int("n")
    }
}

/// The clock of a recovery test, moved by hand.
final class RecoveryTestClock: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

