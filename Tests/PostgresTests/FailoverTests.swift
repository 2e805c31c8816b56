import Foundation
import Postgres
import Testing
import TestSupport

/// Multi-host URLs, read-only servers and dropped connections: what the pool does when Postgres fails over.
@Suite struct FailoverTests {
    @Test func aConnectionOnAServerThatTurnedReadOnlyIsReportedAndReplaced() throws {
        let table = try PostgresFixture.table("failover", columns: "id int")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let firstPID = try pool.withConnection { connection -> Int32 in
            // What a fenced primary reports: every new transaction is read-only.
            try connection.execute("SET default_transaction_read_only = on")
            return connection.backendPID
        }
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction { try $0.query("INSERT INTO \(table) VALUES (1)") }
        }
        #expect(error?.kind == .readOnlyServer)
        #expect(error?.sqlState == "25006")
        #expect(pool.stats.open == 0)

        let secondPID = try pool.transaction { connection -> Int32 in
            try connection.query("INSERT INTO \(table) VALUES (2)")
            return connection.backendPID
        }
        #expect(secondPID != firstPID)
        let rows = try PostgresFixture.connection().query("SELECT id FROM \(table)").rows
        #expect(try rows.map { try $0.int("id") } == [2])
    }

    @Test func aWriteInAReadOnlyTransactionOnAWritableServerIsAnOrdinaryErrorAndKeepsTheConnection() throws {
        let table = try PostgresFixture.table("failover", columns: "id int")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let firstPID = try pool.withConnection { $0.backendPID }
        let error = #expect(throws: PostgresError.self) {
            try pool.withConnection { connection in
                try connection.execute("BEGIN READ ONLY")
                try connection.query("INSERT INTO \(table) VALUES (1)")
            }
        }
        #expect(error?.kind == .other)
        #expect(error?.sqlState == "25006")
        #expect(try pool.withConnection { $0.backendPID } == firstPID)
    }

    @Test func anIdleConnectionWhoseServerWentAwayIsReplacedBeforeItIsLent() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let firstPID = try pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid") }
        let admin = try Connection(configuration: PostgresConfiguration(url: try TestEnvironment.adminDatabaseURL()))
        let terminated = try admin.query("SELECT pg_terminate_backend($1::int, 5000) AS done", [.int(firstPID)])
        #expect(try terminated.rows[0].bool("done"))

        let secondPID = try pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid") }
        #expect(secondPID != firstPID)
        #expect(pool.stats == PoolStats(size: 1, open: 1, inUse: 0, waiting: 0))
    }

    @Test func aMultiHostURLSkipsAHostThatDoesNotAnswer() throws {
        let dead = try Shell.freePort()
        let port = try PostgresFixture.port()
        let url = "postgresql://handoff@127.0.0.1:\(dead),127.0.0.1:\(port)/handoff?target_session_attrs=read-write"
        let pool = Pool(configuration: PostgresConfiguration(url: url, poolSize: 1))
        let answer = try pool.withConnection { try $0.query("SELECT inet_server_port() AS port").rows[0] }
        #expect(try answer.int("port") == port)
    }

    @Test func withPreparedStatementsOffNothingIsPreparedOnTheServer() throws {
        var configuration = try PostgresFixture.configuration(poolSize: 1)
        configuration.preparedStatements = false
        let pool = Pool(configuration: configuration)
        let counts = try pool.withConnection { connection -> [Int] in
            let one = try connection.queryPrepared("SELECT $1::int + 1 AS n", [.int(1)])
            let piped = try connection.pipeline([Statement("SELECT $1::int * 2 AS n", [.int(21)], prepared: true)])
            let prepared = try connection.query("SELECT count(*)::int AS n FROM pg_prepared_statements")
            return [try one.rows[0].int("n"), try piped[0].rows[0].int("n"), try prepared.rows[0].int("n")]
        }
        #expect(counts == [2, 42, 0])

        let preparing = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let preparedCount = try preparing.withConnection { connection -> Int in
            try connection.queryPrepared("SELECT $1::int + 1 AS n", [.int(1)])
            return try connection.query("SELECT count(*)::int AS n FROM pg_prepared_statements").rows[0].int("n")
        }
        #expect(preparedCount == 1)
    }

    /// The whole failover on a private primary and its synchronous standby: every insert the pool acknowledged
    /// before the primary crashed is on the promoted standby, and the same pool (one multi-host URL) writes there.
    @Test(.timeLimit(.minutes(2)))
    func afterThePrimaryCrashesAndTheStandbyIsPromotedNoAcknowledgedWriteIsLostAndThePoolWritesThere() throws {
        let primary = try ScratchPostgres()
        let admin = try Connection(configuration: PostgresConfiguration(url: primary.url))
        try admin.execute("CREATE TABLE acknowledged (id int PRIMARY KEY)")
        let standby = try ScratchStandby(primaryPort: primary.port)
        try admin.execute("ALTER SYSTEM SET synchronous_standby_names = '*'")
        try admin.execute("SELECT pg_reload_conf()")
        try waitUntil {
            try admin.query("SELECT sync_state FROM pg_stat_replication").rows.first?["sync_state"] == "sync"
        }
        admin.close()

        let url = "postgresql://postgres@127.0.0.1:\(standby.port),127.0.0.1:\(primary.port)/postgres"
            + "?target_session_attrs=read-write&connect_timeout=2"
        let pool = Pool(configuration: PostgresConfiguration(url: url, poolSize: 2, checkoutTimeout: 2))
        #expect(try pool.withConnection { try $0.query("SELECT inet_server_port() AS p").rows[0].int("p") }
                == primary.port)
        // The standby itself refuses writes as a read-only server.
        let onStandby = Pool(configuration: PostgresConfiguration(url: standby.url, poolSize: 1))
        let refused = #expect(throws: PostgresError.self) {
            try onStandby.withConnection { try $0.query("INSERT INTO acknowledged VALUES (0)") }
        }
        #expect(refused?.kind == .readOnlyServer)

        var acknowledged: [Int] = []
        for id in 1...200 {
            try pool.transaction { try $0.query("INSERT INTO acknowledged VALUES ($1)", [.int(id)]) }
            acknowledged.append(id)
        }
        try primary.crash()
        let down = #expect(throws: PostgresError.self) {
            try pool.transaction { try $0.query("INSERT INTO acknowledged VALUES (1000)") }
        }
        #expect([.connectFailed, .connectionLost].contains(down?.kind))

        try standby.promote()
        var written = false
        for id in 201...220 {
            do {
                try pool.transaction { try $0.query("INSERT INTO acknowledged VALUES ($1)", [.int(id)]) }
                acknowledged.append(id)
                written = true
            } catch let error as PostgresError where error.kind != .other {
                usleep(100_000)
            }
        }
        #expect(written)
        let onPromoted = try Connection(configuration: PostgresConfiguration(url: standby.url))
        let ids = try onPromoted.query("SELECT id FROM acknowledged ORDER BY id").rows.map { try $0.int("id") }
        #expect(Set(acknowledged).isSubset(of: Set(ids)))
        #expect(ids.filter { $0 <= 200 } == Array(1...200))
    }

    private func waitUntil(_ condition: () throws -> Bool) throws {
        for _ in 0..<100 {
            if try condition() { return }
            usleep(100_000)
        }
        Issue.record("the condition did not hold within 10 s")
    }
}
