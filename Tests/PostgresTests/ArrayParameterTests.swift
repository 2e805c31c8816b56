import Foundation
import Postgres
import Testing

/// `PostgresArray`: one-dimensional arrays sent in Postgres's binary format, read back by the server as typed arrays.
@Suite struct ArrayParameterTests {
    @Test func everyElementTypeComesBackAsTheServerReadsIt() throws {
        let uuid = UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!
        var uuids = PostgresArray(.uuid), texts = PostgresArray(.text), bigints = PostgresArray(.bigint)
        var integers = PostgresArray(.integer), booleans = PostgresArray(.boolean), documents = PostgresArray(.jsonb)
        var jsonTexts = PostgresArray(.json)
        uuids.append(uuid)
        uuids.appendNull()
        for text in [#"quote " backslash \ comma , brace { } NULL"#, "ünïcödé ✓ 🎉", ""] { texts.append(text) }
        bigints.append(Int(Int64.min))
        bigints.append(-1)
        bigints.append(Int(Int64.max))
        integers.append(Int(Int32.min))
        integers.append(7)
        booleans.append(true)
        booleans.append(false)
        booleans.appendNull()
        documents.append(#"{"b": [1, "x\"y"], "a": null}"#)
        jsonTexts.append(#"{"b":[1,"x\"y"],  "a":null}"#)
        jsonTexts.appendNull()

        let row = try #require(try PostgresFixture.connection().query("""
            SELECT $1::uuid[]::text AS uuids, to_json($2::text[])::text AS texts, $3::bigint[]::text AS bigints,
                   $4::integer[]::text AS integers, $5::boolean[]::text AS booleans, $6::jsonb[]::text AS documents,
                   cardinality($2::text[]) AS text_count, $7::json[]::text AS json_texts
            """, [uuids.value, texts.value, bigints.value, integers.value, booleans.value, documents.value,
                  jsonTexts.value]).first)
        #expect(row["uuids"] == "{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0,NULL}")
        #expect(row["texts"] == #"["quote \" backslash \\ comma , brace { } NULL","ünïcödé ✓ 🎉",""]"#)
        #expect(row["bigints"] == "{-9223372036854775808,-1,9223372036854775807}")
        #expect(row["integers"] == "{-2147483648,7}")
        #expect(row["booleans"] == "{t,f,NULL}")
        #expect(row["documents"] == #"{"{\"a\": null, \"b\": [1, \"x\\\"y\"]}"}"#)
        #expect(try row.int("text_count") == 3)
        // `json` keeps the text as sent, spaces and key order included.
        #expect(row["json_texts"] == #"{"{\"b\":[1,\"x\\\"y\"],  \"a\":null}",NULL}"#)
    }

    @Test func anEmptyArrayIsEmptyAndPreparedStatementsTakeArraysToo() throws {
        let connection = try PostgresFixture.connection()
        for _ in 0..<3 {
            var numbers = PostgresArray(.bigint)
            let empty = PostgresArray(.bigint)
            numbers.append(41)
            let row = try #require(try connection.queryPrepared(
                "SELECT cardinality($1::bigint[]) AS empty, $2::bigint[] AS numbers", [empty.value, numbers.value]
            ).first)
            #expect(try row.int("empty") == 0)
            #expect(row["numbers"] == "{41}")
        }
    }

    @Test func theServerRefusesAnArrayOfAnotherTypeAndInvalidJSON() throws {
        let connection = try PostgresFixture.connection()
        var texts = PostgresArray(.text)
        texts.append("1")
        // A text array's bytes declared as bigint[]: array_recv refuses the element type it names.
        guard case .binary(_, let bytes) = texts.value else { Issue.record("not binary"); return }
        let wrongType = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::bigint[] AS x", [.binary(typeOID: 1016, bytes: bytes)])
        }
        #expect(wrongType?.sqlState == "42804")
        var documents = PostgresArray(.jsonb)
        documents.append("{not json")
        let error = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::jsonb[] AS x", [documents.value])
        }
        #expect(error?.sqlState == "22P02")
        var badJSON = PostgresArray(.json)
        badJSON.append("[1,")
        let jsonError = #expect(throws: PostgresError.self) {
            try connection.query("SELECT $1::json[] AS x", [badJSON.value])
        }
        #expect(jsonError?.sqlState == "22P02")
    }
}
