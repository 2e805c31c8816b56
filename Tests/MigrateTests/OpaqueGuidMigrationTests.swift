import Foundation
import Migrate
import Postgres
import Testing
import TestSupport

/// Migration 0013 (issue 12 §7): every `guid` column becomes `text COLLATE "C"` with the opaque-id CHECK, and rows
/// written while guids were `uuid` read back unchanged (the lowercase text every answer gave for them).
@Suite struct OpaqueGuidMigrationTests {
    static let given = "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"
    static let stored = "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b"
    static let org = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a"
    static let project = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b"
    static let tables = ["buyer_emails", "buyers", "fingerprints", "handoff_codes", "payments"]

    private func connect(_ url: String) throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: url, poolSize: 1))
    }

    /// A database migrated up to and including `version`.
    private func database(migratedTo version: Int) throws -> (url: String, all: [Migration]) {
        let url = try TestDatabase.create(prefix: "migrate")
        let all = try Migration.bundled()
        _ = try Migrator(migrations: all.filter { $0.version <= version }).run(on: try connect(url))
        return (url, all)
    }

    /// One row in every table with a guid, written the way the uuid-typed projections wrote them.
    private func insertRows(guid: String, paymentId: String, codeHash: String, on connection: Connection) throws {
        let values: [PostgresValue] = [.text(guid), .text(Self.org), .text(Self.project), .text(paymentId),
                                       .text(codeHash)]
        try connection.query("""
            INSERT INTO buyers (guid, org_id, project_id, external_id, created_at)
            VALUES ($1, $2::uuid, $3::uuid, $4, now())
            """, Array(values.prefix(4)))
        try connection.query("""
            INSERT INTO buyer_emails (org_id, guid, email_hash, verified, created_at)
            VALUES ($2::uuid, $1, $3, true, now())
            """, [.text(guid), .text(Self.org), .text(codeHash)])
        try connection.query("""
            INSERT INTO payments (org_id, payment_id, guid, project_id, amount, currency, product_id, entitlement,
                body_hash, recorded_at)
            VALUES ($2::uuid, $4, $1, $3::uuid, 999, 'EUR', 'pro_monthly', 'pro', $5, now())
            """, values)
        try connection.query("""
            INSERT INTO handoff_codes (code_hash, org_id, guid, payment_id, kind, expires_at, sealed_code, created_at)
            VALUES ($4, $2::uuid, $1, $3, 'handoff', now() + interval '1 day', 'pd1.x', now())
            """, [.text(guid), .text(Self.org), .text(paymentId), .text(codeHash)])
        try connection.query("""
            INSERT INTO fingerprints (org_id, payment_id, project_id, guid, screen, ip_hash, paid_at, expires_at,
                recorded_at)
            VALUES ($2::uuid, $4, $3::uuid, $1, '393x852', $5, now(), now() + interval '2 hours', now())
            """, values)
    }

    private func guids(in table: String, on connection: Connection) throws -> [String] {
        try connection.query("SELECT guid::text AS guid FROM \(table)").rows.map { try $0.string("guid") }.sorted()
    }

    @Test func aRowWrittenAsUUIDReadsBackUnchangedAfterMigration13() throws {
        let (url, all) = try database(migratedTo: 12)
        let connection = try connect(url)
        try insertRows(guid: Self.given, paymentId: "pi_1", codeHash: String(repeating: "a", count: 64),
                       on: connection)
        let before = try Self.tables.map { try guids(in: $0, on: connection) }
        #expect(before == Array(repeating: [Self.stored], count: Self.tables.count))

        _ = try Migrator(migrations: all.filter { $0.version <= 13 }).run(on: connection)
        #expect(try Self.tables.map { try guids(in: $0, on: connection) } == before)
        // Compared exactly now: the upper-case spelling the client once sent is another id.
        for table in Self.tables {
            let rows = try connection.query("SELECT count(*) AS n FROM \(table) WHERE guid = $1", [.text(Self.given)])
            #expect(try rows.rows[0].int("n") == 0, "\(table)")
        }
        let columns = try connection.query("""
            SELECT table_name, data_type, collation_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_name = 'guid' ORDER BY table_name
            """).rows
        #expect(try columns.map { try $0.string("table_name") } == Self.tables)
        #expect(columns.allSatisfy { $0["data_type"] == "text" && $0["collation_name"] == "C" })
    }

    @Test func afterMigration13EveryGuidColumnTakesOpaqueIdsExactlyAndRefusesTheRest() throws {
        let (url, _) = try database(migratedTo: 13)
        let connection = try connect(url)
        try insertRows(guid: "ABC", paymentId: "pi_1", codeHash: String(repeating: "a", count: 64), on: connection)
        try insertRows(guid: "abc", paymentId: "pi_2", codeHash: String(repeating: "b", count: 64), on: connection)
        let longest = String(repeating: "aB3.", count: 16)
        try insertRows(guid: longest, paymentId: "pi_3", codeHash: String(repeating: "c", count: 64), on: connection)
        for table in Self.tables {
            #expect(try guids(in: table, on: connection) == ["ABC", longest, "abc"].sorted(), "\(table)")
        }
        for (index, bad) in ["", "a b", "a/b", "é", String(repeating: "a", count: 65)].enumerated() {
            for table in Self.tables {
                #expect(throws: PostgresError.self, "\(table) took \(bad)") {
                    try connection.execute("BEGIN")
                    defer { _ = try? connection.execute("ROLLBACK") }
                    try connection.query("UPDATE \(table) SET guid = $1 WHERE guid = 'abc'", [.text(bad)])
                }
            }
            #expect(throws: PostgresError.self) {
                try insertRows(guid: bad, paymentId: "pi_bad\(index)", codeHash: String(repeating: "d", count: 64),
                               on: connection)
            }
        }
    }
}
