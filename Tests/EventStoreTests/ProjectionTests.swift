import EventStore
import Foundation
import Postgres
import Testing

/// Sums `number` per org into `sample_totals`; refuses numbers below 0 (to show that a throw aborts the append).
struct SampleTotals: InlineProjection {
    var tables: [String] { ["sample_totals"] }

    func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        guard let number = event.data["number"]?.integerValue else { return }
        guard number >= 0 else { throw DeliberateRollback() }
        try connection.query("""
            INSERT INTO \(tables["sample_totals"]) (org_id, total, events) VALUES ($1::uuid, $2::bigint, 1)
            ON CONFLICT (org_id) DO UPDATE SET total = EXCLUDED.total + \(tables["sample_totals"]).total,
                                               events = \(tables["sample_totals"]).events + 1
            """, [.text(event.orgId.uuidString), .text(String(number))])
    }

    /// Creates the table as the owner and grants the application role what the projection does (a new table gives
    /// it nothing by default, migration 0014).
    static func createTables(on connection: Connection, tables: ProjectionTables = .live) throws {
        try connection.execute("""
            CREATE TABLE \(tables["sample_totals"])
                (org_id uuid PRIMARY KEY, total bigint NOT NULL, events int NOT NULL);
            GRANT SELECT, INSERT, UPDATE ON \(tables["sample_totals"]) TO handoff_app
            """)
    }
}

@Suite struct ProjectionTests {
    private func totals(_ connection: Connection, _ org: UUID, table: String = "sample_totals") throws -> [String?] {
        try connection.query("SELECT total, events FROM \(table) WHERE org_id = $1::uuid", [.text(org.uuidString)])
            .rows.flatMap(\.values)
    }

    @Test func inlineProjectionsUpdateInTheAppendTransactionAndAThrowAbortsTheAppend() throws {
        let fixture = try EventStoreFixture.migrated()
        try SampleTotals.createTables(on: fixture.ownerConnection())
        let store = fixture.store(projections: [SampleTotals()])
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(5), sampleEvent(7)],
                         metadata: testMetadata)
        let connection = try fixture.appConnection()
        #expect(try totals(connection, org) == ["12", "2"])

        #expect(throws: DeliberateRollback.self) {
            try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(1), sampleEvent(-1)],
                             metadata: testMetadata)
        }
        #expect(try totals(connection, org) == ["12", "2"])
        #expect(try store.readHistory(org: org).map(\.orgSeq) == [1, 2])
        try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(1)], metadata: testMetadata)
        #expect(try store.readHistory(org: org).map(\.orgSeq) == [1, 2, 3])
    }

    @Test func aProjectionAppliedWithPrefixedTablesRebuildsTheSameRowsFromTheLog() throws {
        let fixture = try EventStoreFixture.migrated()
        let owner = try fixture.ownerConnection()
        try SampleTotals.createTables(on: owner)
        let replayTables = ProjectionTables(prefix: "replay_")
        try SampleTotals.createTables(on: owner, tables: replayTables)
        let store = fixture.store(projections: [SampleTotals()])
        let org = UUID()
        for number in 1...5 {
            try store.append(org: org, stream: "s\(number % 2)", expectedVersion: .any, events: [sampleEvent(number)],
                             metadata: testMetadata)
        }
        let connection = try fixture.appConnection()
        for event in try EventReader.readHistory(org: org, on: connection, in: .org(org)) {
            try SampleTotals().apply(event, on: connection, tables: replayTables)
        }
        #expect(try totals(connection, org, table: "replay_sample_totals") == totals(connection, org))
        #expect(try totals(connection, org) == ["15", "5"])
    }
}
