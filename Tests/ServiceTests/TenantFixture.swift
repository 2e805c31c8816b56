import API
import Commands
import EventStore
import Foundation
import HTTPServer
import Migrate
import Postgres
import Redis
import Telemetry
import TestSupport

/// A fresh migrated database, the API edge over it (no socket), and `handoff admin` through the real binary.
struct TenantFixture {
    let database: ScratchDatabase

    static func migrated() throws -> TenantFixture {
        let database = try ScratchDatabase.create(prefix: "tenants")
        let owner = try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
        defer { owner.close() }
        _ = try Migrator(migrations: Migration.bundled()).run(on: owner)
        return TenantFixture(database: database)
    }

    func ownerConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.ownerURL, statementTimeoutMilliseconds: 0))
    }

    /// The edge as `serve` builds it, over the application role; `postgresURL` overrides the database.
    /// `identity` defaults to `TestIdentity.secrets()`; `clock` to the wall clock.
    func responder(postgresURL: String? = nil, redisURL: String? = nil,
                   s2sLimit: RateLimit = Environment.defaultS2SLimit,
                   identity: IdentitySecrets? = TestIdentity.secrets(),
                   paywallBuyerLimit: RateLimit = TestIdentity.uniquePaywallLimit(),
                   clock: @escaping @Sendable () -> Date = { Date() }, poolSize: Int = 2,
                   publicBaseURL: String = "http://127.0.0.1:8080",
                   publicEntitlementsLimit: RateLimit = TestIdentity.uniqueLimit(count: 60))
        throws -> APIResponder {
        let environment = Environment(
            model: WriteModel(pool: Pool(configuration: PostgresConfiguration(url: postgresURL ?? database.appURL,
                                                                poolSize: poolSize)), secrets: identity),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try redisURL ?? TestEnvironment.redisURL(), poolSize: 2, connectTimeout: 0.3,
                commandTimeout: 0.3)),
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            s2sLimit: s2sLimit, paywallBuyerLimit: paywallBuyerLimit, clock: clock,
            publicBaseURL: publicBaseURL, publicEntitlementsLimit: publicEntitlementsLimit)
        return APIResponder(environment: environment)
    }

    /// Runs `handoff admin <arguments>` against this database.
    func admin(_ arguments: [String]) throws -> AdminOutcome {
        let folder = try TestEnvironment.scratchFolder()
        let stem = folder + "/admin-\(UInt64.random(in: 0...UInt64.max))"
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": database.appURL, "MIGRATION_DATABASE_URL": database.ownerURL, "LOG_LEVEL": "error",
        ]) { $1 }
        let child = try ChildProcess(
            ["sh", "-c", "out=\"$1\"; err=\"$2\"; shift 2; exec \"$@\" >\"$out\" 2>\"$err\"", "sh",
             stem + ".out", stem + ".err", try HandoffBinary.path(), "admin"] + arguments,
            environment: environment)
        let status = try child.wait(timeout: 120)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return AdminOutcome(status: status, stdout: read(stem + ".out"), stderr: read(stem + ".err"))
    }

    /// Creates an org and a project through the CLI; returns (org, project, key).
    func tenant(_ extra: [String] = []) throws -> (org: String, project: String, key: String) {
        let org = try admin(["org", "create", "--name", "Org"]).json()["orgId"] as! String
        let created = try admin(["project", "create", "--org", org, "--name", "App"] + extra).json()
        return (org, created["projectId"] as! String, created["secretKey"] as! String)
    }
}

struct AdminOutcome {
    var status: ChildProcess.Termination
    var stdout: String
    var stderr: String

    func json() throws -> [String: Any] {
        guard status == .exited(0) else { throw AdminFailed(outcome: "\(status) \(stderr)") }
        return try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as! [String: Any]
    }
}

struct AdminFailed: Error { var outcome: String }

func s2sRequest(_ method: HTTPServer.Method, _ path: String, key: String?, body: String = "") -> Request {
    var headers: [(String, String)] = []
    if let key { headers.append(("Authorization", "Bearer " + key)) }
    return Request(method: method, path: path, query: [:], headers: Headers(headers), body: Array(body.utf8),
                   clientIP: "203.0.113.7", remoteAddress: "203.0.113.7")
}

func bodyText(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

/// Identity secrets for tests: fixed keys, so passes issued by one responder verify in another.
enum TestIdentity {
    static let oldPassKey: [UInt8] = Array(repeating: 0x11, count: 32)
    static let newPassKey: [UInt8] = Array(repeating: 0x22, count: 32)

    /// Master key, pepper and pass keys (`old1` signing unless `passKeys` says otherwise).
    static func secrets(passKeys: [(id: String, key: [UInt8])] = [("old1", oldPassKey)]) -> IdentitySecrets {
        IdentitySecrets(masterKey: Array(repeating: 0x33, count: 32), lookupPepper: Array(repeating: 0x44, count: 32),
                        passKeys: passKeys)
    }

    /// The production shape of the paywall-buyer limit (30/min, closed) under a name of its own, so tests that
    /// share a Redis and a client IP do not share a budget.
    /// `count` per minute per IP, fails closed, under a name of its own (as `uniquePaywallLimit`).
    static func uniqueLimit(count: Int) -> RateLimit {
        RateLimit.perWindow(name: "limit-test-\(UInt64.random(in: 0...UInt64.max))", count: count, seconds: 60,
                            onFailure: .closed)
    }

    static func uniquePaywallLimit() -> RateLimit {
        RateLimit.perWindow(name: "paywall-test-\(UInt64.random(in: 0...UInt64.max))", count: 30, seconds: 60,
                            onFailure: .closed)
    }
}

func publicRequest(_ path: String, query: [String: String], clientIP: String = "198.51.100.9") -> Request {
    Request(method: .get, path: path, query: query, headers: Headers([]), body: [], clientIP: clientIP,
            remoteAddress: clientIP)
}

func jsonObject(_ response: Response) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}
