import Commands
import EventStore
import Foundation
import Postgres
import Redis
import Synchronization
import Testing
import TestSupport
import Workers

/// A migrated database, a private restartable Redis, and the `probe` job kind over them, for one test.
final class JobFixture: @unchecked Sendable {
    let database: ScratchDatabase
    let redis: RestartableRedis
    let pool: Pool
    let redisPool: RedisPool
    let registry: JobRegistry
    let store: EventLog
    /// The probe jobs of this test push their ids to `<list>:started` and `<list>:done`.
    let list = "probe:\(UUID().uuidString)"

    init() throws {
        database = try ScratchDatabase.migrated(prefix: "jobs")
        redis = try RestartableRedis()
        pool = Pool(configuration: PostgresConfiguration(url: database.appURL, poolSize: 4))
        redisPool = RedisPool(configuration: try RedisConfiguration(url: redis.url, poolSize: 4, connectTimeout: 1,
                                                                    commandTimeout: 3))
        registry = JobRegistry([ProbeJob.kind(redis: redisPool)])
        store = EventLog(pool: pool, projections: ProjectionRegistry.service)
    }

    deinit {
        pool.close()
        redisPool.close()
    }

    /// Inserts `count` probe jobs in one transaction; returns their ids.
    func insertProbes(_ count: Int, sleepMilliseconds: Int = 0, fail: Bool = false, now: Date = Date()) throws
        -> [Int]
    {
        try pool.transaction { connection in
            try (0..<count).map { _ in
                try #require(try JobStore.insert(ProbeJob.job(list: list, sleepMilliseconds: sleepMilliseconds,
                                                              fail: fail), now: now, on: connection))
            }
        }
    }

    /// The operator's reads of the outbox run as the owner (`handoff jobs`); the application role has no privilege on
    /// `jobs` and moves jobs only through the owner's functions.
    func ownerConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
    }

    func job(_ id: Int) throws -> Job {
        try #require(try JobStore.find(id, on: ownerConnection()))
    }

    func counts() throws -> [Job.State: Int] {
        try JobStore.counts(on: ownerConnection())
    }

    /// The ids pushed to `<list>:<suffix>` (`started` or `done`), in push order.
    func pushed(_ suffix: String) throws -> [Int] {
        let reply = try redisPool.command(["LRANGE", "\(list):\(suffix)", "0", "-1"])
        return (reply.elements ?? []).compactMap { $0.string.flatMap { Int($0) } }
    }

    func relay(clock: @escaping @Sendable () -> Date = { Date() }) -> JobRelay {
        JobRelay(pool: pool, redis: redisPool, registry: registry, clock: clock)
    }

    func consumer(_ name: String = "test-\(UUID().uuidString)", visibilityTimeout: Double = 60,
                  clock: @escaping @Sendable () -> Date = { Date() }) -> JobConsumer {
        JobConsumer(queue: ProbeJob.queue, name: name, store: store, redis: redisPool, registry: registry,
                    visibilityTimeout: visibilityTimeout, clock: clock, blockMilliseconds: 100)
    }

    /// `handoff work <arguments>` against this database and Redis.
    func worker(_ arguments: [String], visibilityTimeout: Int = 2, threads: Int = 2) throws -> ChildProcess {
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": database.appURL, "REDIS_URL": redis.url, "LOG_LEVEL": "warning",
            "WORK_THREADS": String(threads), "JOB_VISIBILITY_TIMEOUT_SECONDS": String(visibilityTimeout),
        ]) { $1 }
        return try ChildProcess([try HandoffBinary.path(), "work"] + arguments, environment: environment)
    }

    /// `handoff jobs <arguments>`: exit status and standard output + error (as `MIGRATION_DATABASE_URL`, the owner).
    func jobsCommand(_ arguments: [String]) throws -> (status: ChildProcess.Termination, output: String) {
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": database.appURL, "MIGRATION_DATABASE_URL": database.ownerURL, "LOG_LEVEL": "error",
        ]) { $1 }
        let child = try ChildProcess([try HandoffBinary.path(), "jobs"] + arguments, environment: environment)
        let status = try child.wait(timeout: 60)
        return (status, child.output())
    }

    /// Polls `condition` every 50 ms until it holds or `timeout` seconds pass; returns whether it held.
    func waitUntil(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_900_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { [self] in now } }
}

/// A JSON object printed by a command (the last line of its output that parses).
func jsonLine(_ output: String) -> [String: Any]? {
    for line in output.split(separator: "\n").reversed() {
        if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
           object["id"] != nil || object["jobs"] != nil { return object }
    }
    return nil
}
