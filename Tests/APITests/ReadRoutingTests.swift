import API
@testable import Commands
import Foundation
import Postgres
import Redis
import Testing
import TestSupport

/// `DATABASE_READ_URL` (issue 19): reads go to a replica, except that a writer reads its own recent writes.
@Suite struct ReadRoutingTests {
    @Test(.timeLimit(.minutes(2)))
    func aWriterReadsItsOwnWriteWhileOthersReadTheLaggingReplicaAndAReplicaThatIsDownIsSkipped() throws {
        let primary = try ScratchPostgres()
        let admin = try Connection(configuration: PostgresConfiguration(url: primary.url))
        try admin.execute("CREATE TABLE writes (id int)")
        // The standby applies what it receives 2 s late: a read there right after a write misses it.
        let standby = try ScratchStandby(primaryPort: primary.port, applyDelayMilliseconds: 2000)
        let primaryPool = Pool(configuration: PostgresConfiguration(url: primary.url, poolSize: 2))
        let replicaPool = Pool(configuration: PostgresConfiguration(url: standby.url, poolSize: 2, connectTimeout: 2))
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 2))
        let routing = ReadRouting(primary: primaryPool, replica: replicaPool,
                                  positions: RedisWritePositions(redis: redis), windowSeconds: 5, waitSeconds: 0.2)
        func count(by reader: String?) throws -> Int {
            try routing.read(by: reader) { pool in
                try pool.withConnection { try $0.query("SELECT count(*)::int AS n FROM writes").rows[0].int("n") }
            }
        }
        // The table reaches the standby 2 s after it was made.
        for _ in 0..<100 where (try? count(by: nil)) != 0 { usleep(100_000) }
        #expect(try count(by: nil) == 0)

        let writer = "sk_test_" + UUID().uuidString.prefix(8)
        try primaryPool.withConnection { try $0.query("INSERT INTO writes VALUES (1)") }
        #expect(routing.recordWrite(by: writer))
        #expect(try count(by: writer) == 1)
        #expect(routing.choose(for: writer) === primaryPool)
        #expect(try count(by: "sk_test_other") == 0)
        #expect(try count(by: nil) == 0)
        #expect(routing.choose(for: nil) === replicaPool)

        // Once the replica replayed the write, the writer reads the replica too.
        var replayed = false
        for _ in 0..<50 where !replayed {
            replayed = routing.choose(for: writer) === replicaPool
            if !replayed { usleep(100_000) }
        }
        #expect(replayed)
        #expect(try count(by: writer) == 1)

        try standby.stop()
        #expect(try count(by: nil) == 1)
        #expect(try count(by: writer) == 1)
    }

    /// After a failover `DATABASE_READ_URL` names the promoted server, whose `pg_last_wal_replay_lsn()` stays where
    /// recovery ended: it must count as holding every write (it takes them now), not make each writer's read wait
    /// out `waitSeconds` and go to the primary. That wait was why the chaos run's request rate fell to about 40 %
    /// after the promotion (docs/operations.md, "The chaos run").
    @Test(.timeLimit(.minutes(2)))
    func aPromotedReplicaServesTheWritersReadsAtOnce() throws {
        let primary = try ScratchPostgres()
        let standby = try ScratchStandby(primaryPort: primary.port)
        try primary.crash()
        try standby.promote()
        // As in the cluster after a failover: the primary's URL (pgbouncer) and the read URL reach the same server.
        let writes = Pool(configuration: PostgresConfiguration(url: standby.url, poolSize: 2, connectTimeout: 5))
        let reads = Pool(configuration: PostgresConfiguration(url: standby.url, poolSize: 2, connectTimeout: 5))
        var promoted = false
        for _ in 0..<100 where !promoted {
            promoted = (try? writes.withConnection {
                try $0.query("SELECT NOT pg_is_in_recovery() AS done").rows[0].bool("done")
            }) == true
            if !promoted { usleep(100_000) }
        }
        #expect(promoted)
        try writes.withConnection { try $0.execute("CREATE TABLE writes (id int)") }
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 2))
        let routing = ReadRouting(primary: writes, replica: reads, positions: RedisWritePositions(redis: redis),
                                  windowSeconds: 5, waitSeconds: 2)
        let writer = "sk_test_" + UUID().uuidString.prefix(8)
        #expect(routing.recordWrite(by: writer))
        let started = Date()
        #expect(routing.choose(for: writer) === reads)
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func withoutAReplicaEveryReadGoesToThePrimaryAndNothingIsRecorded() throws {
        let pool = Pool(configuration: PostgresConfiguration(url: try TestEnvironment.databaseURL(), poolSize: 1))
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 1))
        let routing = ReadRouting(primary: pool, positions: RedisWritePositions(redis: redis))
        #expect(!routing.recordWrite(by: "sk_test_nobody"))
        #expect(routing.choose(for: "sk_test_nobody") === pool)
        #expect(routing.choose(for: nil) === pool)
        #expect(try redis.command(["EXISTS", "handoff:written:sk_test_nobody"]) == .integer(0))
    }
}
