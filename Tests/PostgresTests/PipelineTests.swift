import Postgres
import Testing

/// `Connection.pipeline` and `Pool.transaction(opening:)`: several statements in one round trip, one implicit
/// transaction outside a block.
@Suite struct PipelineTests {
    @Test func aLocalSettingOfTheFirstStatementHoldsForTheNextAndEndsWithThePipeline() throws {
        let connection = try PostgresFixture.connection()
        let results = try connection.pipeline([
            Statement("SELECT set_config('handoff.test', $1, true) AS set", ["first"]),
            Statement("SELECT current_setting('handoff.test', true) AS seen", prepared: true),
        ])
        #expect(results.count == 2)
        #expect(try results[1].rows[0].string("seen") == "first")
        let after = try connection.query("SELECT current_setting('handoff.test', true) AS seen").rows[0]
        #expect(after["seen"] ?? "" == "")
        // Prepared statements are reused on the next pipeline.
        let again = try connection.pipeline([
            Statement("SELECT set_config('handoff.test', $1, true) AS set", ["second"]),
            Statement("SELECT current_setting('handoff.test', true) AS seen", prepared: true),
        ])
        #expect(try again[1].rows[0].string("seen") == "second")
    }

    @Test func aFailingStatementStopsTheRestAndKeepsNothingOutsideABlock() throws {
        let table = try PostgresFixture.table("pipeline", columns: "id int PRIMARY KEY")
        let connection = try PostgresFixture.connection()
        let error = #expect(throws: PostgresError.self) {
            try connection.pipeline([
                Statement("INSERT INTO \(table) VALUES (1)"),
                Statement("SELECT 1 / 0 AS boom"),
                Statement("INSERT INTO \(table) VALUES (2)"),
            ])
        }
        #expect(error?.sqlState == "22012")
        #expect(!connection.isBroken)
        #expect(try connection.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n") == 0)
        #expect(try connection.query("SELECT 7 AS seven").rows[0].int("seven") == 7)
    }

    @Test func aBeginInThePipelineLeavesTheBlockOpenForTheCaller() throws {
        let table = try PostgresFixture.table("pipeblock", columns: "id int PRIMARY KEY")
        let connection = try PostgresFixture.connection()
        try connection.pipeline([Statement("BEGIN"), Statement("INSERT INTO \(table) VALUES (1)")])
        try connection.execute("ROLLBACK")
        #expect(try connection.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n") == 0)
    }

    @Test func aTransactionsOpeningStatementGoesWithTheFirstStatementAndItsFailureIsThatStatements() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        let seen = try pool.transaction(opening: Statement("SELECT set_config('handoff.test', 'open', true)")) {
            try $0.query("SELECT current_setting('handoff.test') AS seen").rows[0].string("seen")
        }
        #expect(seen == "open")
        var reached = false
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction(opening: Statement("SELECT 1 / 0")) { connection in
                reached = true
                try connection.query("SELECT 1")
            }
        }
        #expect(reached)
        #expect(error?.sqlState == "22012")
        // A body that sends nothing opens no transaction: the opening never runs.
        let quiet = try pool.transaction(opening: Statement("SELECT 1 / 0")) { _ in "nothing sent" }
        #expect(quiet == "nothing sent")
        let after = try pool.withConnection { try $0.query("SELECT 1 AS one").rows[0].int("one") }
        #expect(after == 1)
        #expect(pool.stats.inUse == 0)
    }

    @Test func aTransactionWhoseBodyThrowsAfterItsFirstStatementKeepsNothing() throws {
        let table = try PostgresFixture.table("pipedeferred", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try pool.transaction { connection in
                try connection.query("INSERT INTO \(table) VALUES (1)")
                throw Refused()
            }
        }
        try pool.transaction { try $0.query("INSERT INTO \(table) VALUES (2)") }
        let ids = try pool.withConnection {
            try $0.query("SELECT id FROM \(table) ORDER BY id").rows.map { try $0.int("id") }
        }
        #expect(ids == [2])
    }

    @Test func queuedWritesAreSentByTheTransactionThatQueuedThemAndTheirFailureRollsItBack() throws {
        let table = try PostgresFixture.table("pipequeued", columns: "id int PRIMARY KEY")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1))
        // Queued and never followed by another statement: the transaction sends them before COMMIT.
        try pool.transaction { connection in
            connection.queueWrite("INSERT INTO \(table) VALUES ($1::int)", [.int(1)])
            connection.queueWrite("INSERT INTO \(table) VALUES ($1::int)", [.int(2)])
        }
        // Sent with the next statement, which sees them.
        let seen = try pool.transaction { connection in
            connection.queueWrite("INSERT INTO \(table) VALUES ($1::int)", [.int(3)])
            return try connection.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n")
        }
        #expect(seen == 3)
        // A queued write that fails is the error of the call that sends it, and nothing of the transaction stays.
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction { connection in
                connection.queueWrite("INSERT INTO \(table) VALUES ($1::int)", [.int(4)])
                connection.queueWrite("INSERT INTO \(table) VALUES ($1::int)", [.int(1)])
                try connection.sendQueued()
            }
        }
        #expect(error?.kind == .uniqueViolation)
        let ids = try pool.withConnection {
            try $0.query("SELECT id FROM \(table) ORDER BY id").rows.map { try $0.int("id") }
        }
        #expect(ids == [1, 2, 3])
        #expect(pool.stats.inUse == 0)
    }

    @Test func statementsQueuedToSendWithTheNextGoInFrontOfItAndCanBeDropped() throws {
        let connection = try PostgresFixture.connection()
        connection.sendWithNext([Statement("SELECT set_config('handoff.test', 'first', false)")])
        #expect(connection.unsentStatementCount == 1)
        #expect(try connection.query("SELECT current_setting('handoff.test') AS seen").rows[0].string("seen")
                == "first")
        #expect(connection.unsentStatementCount == 0)
        connection.sendWithNext([Statement("SELECT set_config('handoff.test', 'kept', false)"),
                                 Statement("SELECT set_config('handoff.test', 'dropped', false)")])
        connection.dropUnsentStatements(keeping: 1)
        #expect(try connection.pipeline([Statement("SELECT current_setting('handoff.test') AS seen")])[0].rows[0]
                    .string("seen") == "kept")
        // A refused parameter sends nothing: the queued statements stay queued.
        connection.sendWithNext([Statement("SELECT set_config('handoff.test', 'late', false)")])
        #expect(throws: PostgresError.self) { try connection.query("SELECT $1::text", ["a\u{0}b"]) }
        #expect(connection.unsentStatementCount == 1)
        try connection.execute("SELECT 1")
        #expect(connection.unsentStatementCount == 0)
        #expect(try connection.query("SELECT current_setting('handoff.test') AS seen").rows[0].string("seen")
                == "late")
    }

    @Test func aDeallocatedPreparedStatementIsPreparedAgain() throws {
        let connection = try PostgresFixture.connection()
        let statement = Statement("SELECT $1::int + 1 AS next", ["1"], prepared: true)
        #expect(try connection.pipeline([statement])[0].rows[0].int("next") == 2)
        try connection.execute("DEALLOCATE ALL")
        #expect(try connection.pipeline([statement])[0].rows[0].int("next") == 2)
    }

    @Test func aTextParameterWithANulIsRefusedBeforeAnyStatementIsSent() throws {
        let table = try PostgresFixture.table("pipenul", columns: "id int PRIMARY KEY")
        let connection = try PostgresFixture.connection()
        #expect(throws: PostgresError.self) {
            try connection.pipeline([Statement("INSERT INTO \(table) VALUES (1)"),
                                     Statement("SELECT $1::text", [.text("a\u{0}b")])])
        }
        #expect(!connection.isBroken)
        #expect(try connection.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n") == 0)
    }
}
