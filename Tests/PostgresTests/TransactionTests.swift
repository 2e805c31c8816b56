import Postgres
import Testing

@Suite struct TransactionTests {
    struct Refusal: Error {}

    @Test func aThrowingTransactionLeavesNothingBehind() throws {
        let table = try PostgresFixture.table("rollback", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        #expect(throws: Refusal.self) {
            try pool.transaction { tx in
                try tx.query("INSERT INTO \(table) VALUES ($1)", [1])
                throw Refusal()
            }
        }
        let count = try pool.withConnection { try $0.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n") }
        #expect(count == 0)
        #expect(pool.stats.inUse == 0)
    }

    @Test func aCommittedTransactionPersistsAndReturnsItsValue() throws {
        let table = try PostgresFixture.table("commit", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration())
        let inserted = try pool.transaction { tx in
            try tx.query("INSERT INTO \(table) VALUES ($1), ($2)", [1, 2]).affectedRows
        }
        #expect(inserted == 2)
        let ids = try PostgresFixture.connection().query("SELECT id FROM \(table) ORDER BY id").rows
            .map { try $0.int("id") }
        #expect(ids == [1, 2])
    }

    @Test func aTransactionWhoseFailedStatementWasSwallowedRollsBackInsteadOfCommitting() throws {
        let table = try PostgresFixture.table("swallowed", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction { tx in
                try tx.query("INSERT INTO \(table) VALUES (1)")
                _ = try? tx.query("INSERT INTO \(table) VALUES (1)")
            }
        }
        #expect(error?.kind == .other)
        let count = try pool.withConnection { try $0.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n") }
        #expect(count == 0)
    }

    @Test func aConnectionReturnedInsideAnOpenTransactionIsRolledBackBeforeReuse() throws {
        let table = try PostgresFixture.table("abandoned", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let firstPID = try pool.withConnection { connection in
            try connection.execute("BEGIN")
            try connection.query("INSERT INTO \(table) VALUES (1)")
            return connection.backendPID
        }
        let (pid, count) = try pool.withConnection { connection in
            (connection.backendPID, try connection.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n"))
        }
        #expect(pid == firstPID)
        #expect(count == 0)
        // Were the transaction still open, this would block on the uncommitted row's lock.
        try PostgresFixture.connection().query("INSERT INTO \(table) VALUES (1)")
    }

    @Test func aConnectionReturnedInsideAFailedTransactionIsUsableAgain() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            _ = try? connection.query("SELECT 1/0")
        }
        let one = try pool.withConnection { try $0.query("SELECT 1 AS one").rows[0].int("one") }
        #expect(one == 1)
    }
}
