import Domain
import EventStore
import Foundation
import Postgres
import Testing

@Suite struct ImmutabilityTests {
    private func seed(_ fixture: EventStoreFixture, org: UUID, count: Int) throws {
        let store = fixture.store(poolSize: 1)
        for number in 1...count {
            try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(number)],
                             metadata: testMetadata)
        }
    }

    @Test func theApplicationRoleCannotUpdateDeleteOrTruncateEvents() throws {
        let fixture = try EventStoreFixture.migrated()
        let org = UUID()
        try seed(fixture, org: org, count: 2)
        let app = try fixture.appConnection()
        for statement in ["UPDATE events SET event_type = 'Changed' WHERE org_id = $1::uuid",
                          "DELETE FROM events WHERE org_id = $1::uuid"] {
            #expect {
                try app.query(statement, [.text(org.uuidString)])
            } throws: { error in
                (error as? PostgresError)?.sqlState == "42501"
            }
        }
        #expect(throws: PostgresError.self) { try app.execute("TRUNCATE events") }
        #expect(throws: PostgresError.self) { try app.query("DELETE FROM event_orgs") }
        #expect(try app.queryPrepared("SELECT count(*) AS n FROM events", in: .org(org)).rows[0].int("n") == 2)
    }

    @Test func evenTheOwnerIsStoppedByTheTrigger() throws {
        let fixture = try EventStoreFixture.migrated()
        let org = UUID()
        try seed(fixture, org: org, count: 2)
        let owner = try fixture.ownerConnection()
        for statement in ["UPDATE events SET event_type = 'Changed'", "DELETE FROM events", "TRUNCATE events"] {
            #expect {
                try owner.execute(statement)
            } throws: { error in
                (error as? PostgresError)?.message.contains("append-only") == true
            }
        }
        #expect(try owner.query("SELECT count(*) AS n FROM events").rows[0].int("n") == 2)
    }

    @Test func aRowAlteredBehindTheTriggersBackIsNamedByTheVerifier() throws {
        let fixture = try EventStoreFixture.migrated()
        let (tampered, intact) = (UUID(), UUID())
        try seed(fixture, org: tampered, count: 4)
        try seed(fixture, org: intact, count: 3)
        let owner = try fixture.ownerConnection()
        #expect(try AuditVerifier.verify(on: owner) == [])

        let admin = try fixture.adminConnection()
        try admin.execute("SET session_replication_role = replica")
        try admin.query("UPDATE events SET data = '{\"number\": 999, \"label\": \"event 2\"}' "
                        + "WHERE org_id = $1::uuid AND org_seq = 2", [.text(tampered.uuidString)])
        try admin.execute("RESET session_replication_role")

        #expect(try AuditVerifier.verify(on: owner) == [ChainBreak(org: tampered, orgSeq: 2, reason: .hashMismatch)])
        #expect(try AuditVerifier.verify(org: intact, on: owner) == [])
    }

    /// `events` has no CHECK constraints since 0012 (they moved into `event_append`) and the application role may
    /// INSERT: a row written around the append with a correct org_seq, hash and counter, but a value the append never
    /// writes, is still named by the verifier.
    @Test(arguments: ["stream_id", "event_type", "schema_version", "stream_version"])
    func aRowInsertedAroundTheAppendWithAValueItNeverWritesIsNamed(field: String) throws {
        let fixture = try EventStoreFixture.migrated()
        let org = UUID()
        try seed(fixture, org: org, count: 1)
        let app = try fixture.appConnection()
        let orgText = org.uuidString.lowercased()
        let head = try #require(try app.queryPrepared("SELECT last_hash FROM event_orgs WHERE org_id = $1::uuid",
                                                      [.text(orgText)], in: .org(org)).first?.bytes("last_hash"))
        let (stream, type) = (field == "stream_id" ? "" : "t", field == "event_type" ? "" : "Recorded")
        let (schemaVersion, streamVersion) = (field == "schema_version" ? 0 : 1, field == "stream_version" ? 0 : 1)
        let (eventId, recordedAt, data) = (UUID(), "2026-12-01T00:00:00.000000Z", EventJSON.object(["n": .integer(1)]))
        let hash = EventChain.hash(previous: head, canonical: EventChain.canonicalBytes(
            orgId: org, orgSeq: 2, streamId: stream, streamVersion: streamVersion, eventId: eventId, eventType: type,
            schemaVersion: schemaVersion, recordedAt: recordedAt, data: data, metadata: testMetadata.json))
        // Written as the application role, in its own org's scope (row-level security lets nothing else through).
        try app.queryPrepared("""
            INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version, data,
                                metadata, recorded_at, prev_hash, hash)
            VALUES ($1::uuid, 2, $2, $3::bigint, $4::uuid, $5, $6::integer, $7::jsonb, $8::jsonb, $9::timestamptz, $10,
                    $11)
            """, [.text(orgText), .text(stream), .int(streamVersion), .text(eventId.uuidString), .text(type),
                  .int(schemaVersion), .text(data.canonicalText), .text(testMetadata.json.canonicalText),
                  .text(recordedAt), .bytea(head), .bytea(hash)], in: .org(org))
        try app.queryPrepared("UPDATE event_orgs SET last_seq = 2, last_hash = $2 WHERE org_id = $1::uuid",
                              [.text(orgText), .bytea(hash)], in: .org(org))
        #expect(try AuditVerifier.verify(on: fixture.ownerConnection())
            == [ChainBreak(org: org, orgSeq: 2, reason: .invalidValue(field: field))])
    }

    @Test func aDeletedRowOrAStaleCounterIsAGapForTheVerifier() throws {
        let fixture = try EventStoreFixture.migrated()
        let (holed, counted) = (UUID(), UUID())
        try seed(fixture, org: holed, count: 3)
        try seed(fixture, org: counted, count: 2)
        let admin = try fixture.adminConnection()
        try admin.execute("ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete")
        try admin.query("DELETE FROM events WHERE org_id = $1::uuid AND org_seq = 2", [.text(holed.uuidString)])
        try admin.execute("ALTER TABLE events ENABLE TRIGGER events_refuse_update_delete")
        try admin.query("UPDATE event_orgs SET last_seq = 5 WHERE org_id = $1::uuid", [.text(counted.uuidString)])

        let breaks = try AuditVerifier.verify(on: fixture.ownerConnection())
        #expect(Set(breaks.map(\.description)) == Set([
            ChainBreak(org: holed, orgSeq: 2, reason: .gap(found: 3)),
            ChainBreak(org: counted, orgSeq: 3, reason: .counterSequenceMismatch(counterSeq: 5)),
        ].map(\.description)))
    }
}
