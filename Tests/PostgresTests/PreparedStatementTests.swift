import Postgres
import Testing

@Suite struct PreparedStatementTests {
    static func preparedCount(_ connection: Connection) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM pg_prepared_statements").rows[0].int("n")
    }

    @Test func runningTheSameSQLTwicePreparesItOnceAndAnswersEachCall() throws {
        let connection = try PostgresFixture.connection()
        let sql = "SELECT $1::int + 1 AS next"
        let first = try connection.queryPrepared(sql, [41])
        let second = try connection.queryPrepared(sql, [99])
        #expect(try first.rows[0].int("next") == 42)
        #expect(try second.rows[0].int("next") == 100)
        #expect(try Self.preparedCount(connection) == 1)
        let statement = try connection.query("SELECT statement FROM pg_prepared_statements").rows[0]["statement"]
        #expect(statement == sql)
    }

    @Test func differentSQLGetsItsOwnPreparedStatement() throws {
        let connection = try PostgresFixture.connection()
        try connection.queryPrepared("SELECT 1 AS one")
        try connection.queryPrepared("SELECT 2 AS two")
        try connection.queryPrepared("SELECT 1 AS one")
        #expect(try Self.preparedCount(connection) == 2)
    }

    @Test func aStatementThatFailsToPrepareIsNotCachedAndTheNextCallWorks() throws {
        let connection = try PostgresFixture.connection()
        let table = PostgresFixture.uniqueName("later")
        let sql = "SELECT count(*) AS n FROM \(table)"
        #expect(throws: PostgresError.self) { try connection.queryPrepared(sql) }
        try connection.execute("CREATE TABLE \(table) (id int)")
        #expect(try connection.queryPrepared(sql).rows[0].int("n") == 0)
    }

    @Test func cachedStatementsSurviveDeallocateAll() throws {
        let connection = try PostgresFixture.connection()
        let sql = "SELECT $1::text || '!' AS shout"
        try connection.queryPrepared(sql, ["hey"])
        try connection.execute("DEALLOCATE ALL")
        #expect(try connection.queryPrepared(sql, ["again"]).rows[0]["shout"] == "again!")
        #expect(try Self.preparedCount(connection) == 1)
    }
}
