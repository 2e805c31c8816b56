import Postgres
import Testing

@Suite struct ParameterTests {
    static let everyByte: [UInt8] = [0, 0] + (0...255).map(UInt8.init) + [0]

    @Test func byteaParametersHoldingNULAndEveryByteValueComeBackUnchanged() throws {
        let table = try PostgresFixture.table("bytes", columns: "id int PRIMARY KEY, data bytea")
        let connection = try PostgresFixture.connection()
        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, .bytea(Self.everyByte)])
        try connection.queryPrepared("INSERT INTO \(table) VALUES ($1, $2)", [2, .bytea(Self.everyByte)])
        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [3, .bytea([])])

        let rows = try connection.query("SELECT id, data, length(data) AS length FROM \(table) ORDER BY id").rows
        #expect(rows.map { $0.bytes("data") } == [Self.everyByte, Self.everyByte, []])
        #expect(try rows.map { try $0.int("length") } == [Self.everyByte.count, Self.everyByte.count, 0])
    }

    @Test func byteaParametersNeedNoTableToRoundTrip() throws {
        let row = try #require(try PostgresFixture.connection()
            .query("SELECT $1 AS data", [.bytea(Self.everyByte)]).first)
        #expect(row.bytes("data") == Self.everyByte)
    }

    @Test func byteaInTheOlderEscapeOutputFormatDecodesToo() throws {
        let connection = try PostgresFixture.connection()
        try connection.execute("SET bytea_output = 'escape'")
        let row = try #require(try connection.query("SELECT $1::bytea AS data", [.bytea(Self.everyByte)]).first)
        #expect(row["data"]?.hasPrefix("\\x") == false)
        #expect(row.bytes("data") == Self.everyByte)
    }

    @Test func textParametersHoldingQuotesAndSQLAreStoredAsData() throws {
        let table = try PostgresFixture.table("texts", columns: "id int PRIMARY KEY, body text")
        let texts = [
            "'); DROP TABLE \(table); --",
            "O'Brien said \"hi\" \\ and left; $1 $$ dollar $$",
            "ünïcödé ✓ 🎉",
            "",
        ]
        let connection = try PostgresFixture.connection()
        for (index, text) in texts.enumerated() {
            try connection.query("INSERT INTO \(table) (id, body) VALUES ($1, $2)", [.int(index), .text(text)])
        }
        let rows = try connection.queryPrepared("SELECT body FROM \(table) ORDER BY id").rows
        #expect(try rows.map { try $0.string("body") } == texts)
        let found = try connection.query("SELECT id FROM \(table) WHERE body = $1", [.text(texts[0])])
        #expect(try found.rows.map { try $0.int("id") } == [0])
    }

    @Test func nullParametersArriveAsSQLNull() throws {
        let row = try #require(try PostgresFixture.connection().query(
            "SELECT $1::text IS NULL AS missing, $2::bytea AS data, $3::int AS number",
            [nil, .null, .optional(nil as Int?)]
        ).first)
        #expect(try row.bool("missing"))
        #expect(row.bytes("data") == nil)
        #expect(try row.optionalInt("number") == nil)
        #expect(row.isNull("number"))
    }

    @Test func typedHelpersSendValuesPostgresUnderstands() throws {
        let row = try #require(try PostgresFixture.connection().query(
            "SELECT $1::bigint + 1 AS n, NOT $2::boolean AS flipped, $3::float8 * 2 AS doubled",
            [.int(Int.max - 1), .bool(false), .double(1.25)]
        ).first)
        #expect(try row.int("n") == Int.max)
        #expect(try row.bool("flipped"))
        #expect(try row.double("doubled") == 2.5)
    }

    @Test func aTextParameterHoldingNULIsRefusedInsteadOfTruncated() throws {
        let error = #expect(throws: PostgresError.self) {
            try PostgresFixture.connection().query("SELECT $1::text", [.text("before\u{0}after")])
        }
        #expect(error?.kind == .other)
    }

    @Test func readingANullOrMissingColumnAsAStringThrows() throws {
        let row = try #require(try PostgresFixture.connection()
            .query("SELECT NULL::text AS nothing, 'x' AS word").first)
        #expect(throws: PostgresError.self) { try row.string("nothing") }
        #expect(throws: PostgresError.self) { try row.string("absent") }
        #expect(throws: PostgresError.self) { try row.int("word") }
        #expect(row["word"] == "x")
        #expect(row.columns == ["nothing", "word"])
    }

    @Test func affectedRowsCountsWhatAStatementChanged() throws {
        let table = try PostgresFixture.table("affected", columns: "id int")
        let connection = try PostgresFixture.connection()
        let inserted = try connection.query("INSERT INTO \(table) SELECT generate_series(1, 5)")
        let updated = try connection.query("UPDATE \(table) SET id = id + 10 WHERE id > $1", [2])
        #expect(inserted.affectedRows == 5)
        #expect(updated.affectedRows == 3)
        #expect(try connection.query("SELECT * FROM \(table)").affectedRows == 5)
    }
}
