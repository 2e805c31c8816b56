import Foundation
import Postgres
import Testing

@Suite struct ErrorTests {
    @Test func aUniqueViolationSurfacesAsUniqueViolationWithItsSQLState() throws {
        let table = try PostgresFixture.table("unique", columns: "email text")
        let connection = try PostgresFixture.connection()
        try connection.execute("CREATE UNIQUE INDEX \(table)_email ON \(table) (email)")
        try connection.query("INSERT INTO \(table) VALUES ($1)", ["someone@example.com"])
        let error = #expect(throws: PostgresError.self) {
            try connection.queryPrepared("INSERT INTO \(table) VALUES ($1)", ["someone@example.com"])
        }
        #expect(error?.kind == .uniqueViolation)
        #expect(error?.sqlState == "23505")
        #expect(error?.constraint == "\(table)_email")
        #expect(error?.message.contains("someone@example.com") == false)
        #expect(!connection.isBroken)
    }

    @Test func aRaisedSerializationFailureSurfacesAsSerializationFailure() throws {
        let error = #expect(throws: PostgresError.self) {
            try PostgresFixture.connection().execute(
                "DO $$ BEGIN RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001'; END $$"
            )
        }
        #expect(error?.kind == .serializationFailure)
        #expect(error?.sqlState == "40001")
        #expect(error?.message == "could not serialize")
    }

    @Test func twoConflictingSerializableTransactionsFailOneWithSerializationFailure() throws {
        let table = try PostgresFixture.table("skew", columns: "shift int, doctor text")
        let first = try PostgresFixture.connection()
        let second = try PostgresFixture.connection()
        for connection in [first, second] {
            try connection.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
            _ = try connection.query("SELECT count(*) FROM \(table) WHERE shift = 1")
        }
        try first.query("INSERT INTO \(table) VALUES (1, 'a')")
        try second.query("INSERT INTO \(table) VALUES (1, 'b')")
        try first.execute("COMMIT")
        let error = #expect(throws: PostgresError.self) { try second.execute("COMMIT") }
        #expect(error?.kind == .serializationFailure)
        #expect(!second.isBroken)
    }

    @Test func aSerializableTransactionThroughThePoolReportsTheConflictToo() throws {
        let table = try PostgresFixture.table("poolskew", columns: "shift int")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 2))
        let outsider = try PostgresFixture.connection()
        let error = #expect(throws: PostgresError.self) {
            try pool.transaction(isolation: .serializable) { tx in
                _ = try tx.query("SELECT count(*) FROM \(table)")
                try outsider.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                _ = try outsider.query("SELECT count(*) FROM \(table)")
                try outsider.query("INSERT INTO \(table) VALUES (2)")
                try outsider.execute("COMMIT")
                try tx.query("INSERT INTO \(table) VALUES (1)")
            }
        }
        #expect(error?.kind == .serializationFailure)
        #expect(pool.stats.inUse == 0)
    }

    @Test func aStatementRunningPastStatementTimeoutIsCanceled() throws {
        let connection = try PostgresFixture.connection(statementTimeoutMilliseconds: 200)
        let started = Date()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT pg_sleep(5)") }
        #expect(error?.kind == .queryCanceled)
        #expect(error?.sqlState == "57014")
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(!connection.isBroken)
        #expect(try connection.query("SELECT 1 AS one").rows[0].int("one") == 1)
    }

    @Test func everyConnectionGetsTheConfiguredStatementTimeout() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(statementTimeoutMilliseconds: 1_500))
        let setting = try pool.withConnection { try $0.query("SHOW statement_timeout").rows[0]["statement_timeout"] }
        #expect(setting == "1500ms")
    }

    @Test func aSyntaxErrorIsOtherWithItsSQLStateAndKeepsTheConnection() throws {
        let connection = try PostgresFixture.connection()
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELEC 1") }
        #expect(error?.kind == .other)
        #expect(error?.sqlState == "42601")
        #expect(!connection.isBroken)
    }

    @Test func aBadParameterValueDoesNotAppearInTheMessage() throws {
        let error = #expect(throws: PostgresError.self) {
            try PostgresFixture.connection().query("SELECT $1::int", ["secret-token-123"])
        }
        #expect(error?.sqlState == "22P02")
        #expect(error?.message.contains("secret-token-123") == false)
        #expect(error?.message.isEmpty == false)
    }
}
