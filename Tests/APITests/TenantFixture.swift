import API
import Commands
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import TestSupport

/// A fresh migrated database, the API edge over it (no socket), and `handoff admin` through the real binary.
struct TenantFixture {
    let database: ScratchDatabase

    static func migrated() throws -> TenantFixture {
        TenantFixture(database: try ScratchDatabase.migrated(prefix: "tenants"))
    }

    func ownerConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.ownerURL, statementTimeoutMilliseconds: 0))
    }

    /// The edge as `serve` builds it, over the application role; `postgresURL` overrides the database.
    /// `identity` defaults to `TestIdentity.secrets()`; `clock` to the wall clock.
    func responder(postgresURL: String? = nil, redisURL: String? = nil,
                   s2sLimit: RateLimit = Environment.defaultS2SLimit,
                   authFailureLimit: RateLimit = TestIdentity.uniqueLimit(count: 20),
                   identity: IdentitySecrets? = TestIdentity.secrets(),
                   paywallBuyerLimit: RateLimit = TestIdentity.uniquePaywallLimit(),
                   clock: @escaping @Sendable () -> Date = { Date() }, poolSize: Int = 2,
                   publicBaseURL: String = "http://127.0.0.1:8080",
                   publicEntitlementsLimit: RateLimit = TestIdentity.uniqueLimit(count: 60),
                   clientGrouping: ClientAddressGrouping = ClientAddressGrouping(),
                   appAccountTokenLimit: RateLimit = TestIdentity.uniqueLimit(count: 30),
                   storeLimit: RateLimit = TestIdentity.uniqueLimit(count: 30),
                   storeChecks: StoreChecks = StoreChecks(),
                   affiliateLinkLimit: RateLimit = TestIdentity.uniqueLimit(count: 60),
                   bindLimit: RateLimit = TestIdentity.uniqueLimit(count: 10),
                   ingestConfigLimit: RateLimit = TestIdentity.uniqueLimit(count: 60),
                   ingestDailyBatches: Int = Environment.defaultIngestDailyBatches,
                   ingestRecordingLimit: RateLimit = TestIdentity.uniqueLimit(count: 600),
                   ingestEraseLimit: RateLimit = TestIdentity.uniqueLimit(count: 10),
                   ingestBatchInstallLimit: RateLimit = Environment.defaultIngestBatchInstallLimit,
                   ingestBatchAddressLimit: RateLimit = TestIdentity.uniqueBatchAddressLimit(),
                   goLinkLimit: RateLimit = TestIdentity.uniqueLimit(count: 60))
        throws -> APIResponder {
        let postgres = PostgresConfiguration(url: postgresURL ?? database.appURL, poolSize: poolSize)
        let environment = Environment(
            model: WriteModel(pool: Pool(configuration: postgres), secrets: identity),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try redisURL ?? TestEnvironment.redisURL(), poolSize: 2, connectTimeout: 0.3,
                commandTimeout: 0.3)),
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            s2sLimit: s2sLimit, authFailureLimit: authFailureLimit, paywallBuyerLimit: paywallBuyerLimit,
            clock: clock, publicBaseURL: publicBaseURL, publicEntitlementsLimit: publicEntitlementsLimit,
            clientGrouping: clientGrouping, storeLimit: storeLimit, storeChecks: storeChecks,
            appAccountTokenLimit: appAccountTokenLimit, affiliateLinkLimit: affiliateLinkLimit, bindLimit: bindLimit,
            ingestConfigLimit: ingestConfigLimit, ingestDailyBatches: ingestDailyBatches,
            ingestRecordingLimit: ingestRecordingLimit,
            ingestEraseLimit: ingestEraseLimit,
            ingestBatchInstallLimit: ingestBatchInstallLimit, ingestBatchAddressLimit: ingestBatchAddressLimit,
            goLinkLimit: goLinkLimit)
        return APIResponder(environment: environment)
    }

    /// Runs `handoff admin <arguments>` against this database (`environment` adds variables).
    func admin(_ arguments: [String], environment: [String: String] = [:]) throws -> AdminOutcome {
        try database.admin(arguments, environment: environment)
    }

    /// Creates an org and a project through the CLI; returns (org, project, key).
    func tenant(_ extra: [String] = []) throws -> (org: String, project: String, key: String) {
        try database.tenant(extra)
    }
}

func s2sRequest(_ method: HTTPServer.Method, _ path: String, key: String?, body: String = "") -> Request {
    var headers: [(String, String)] = []
    if let key { headers.append(("Authorization", "Bearer " + key)) }
    return Request(method: method, path: path, query: [:], headers: Headers(headers), body: Array(body.utf8),
                   clientIP: "203.0.113.7", remoteAddress: "203.0.113.7")
}

func bodyText(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

func publicRequest(_ path: String, query: [String: String], clientIP: String = "198.51.100.9") -> Request {
    Request(method: .get, path: path, query: query, headers: Headers([]), body: [], clientIP: clientIP,
            remoteAddress: clientIP)
}

func jsonObject(_ response: Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}
