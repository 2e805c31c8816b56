@testable import EventStore
import Foundation
import Postgres
import Testing

/// `AppendStatement`: several commands for several orgs in one `event_append` call, as a group-commit batch sends
/// them, without the timing of concurrent callers.
@Suite struct AppendStatementTests {
    @Test func aStaleCommandIsRefusedAloneItsLaterEventsSkippedAndTheOthersAppended() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let (seeded, fresh) = (UUID(), UUID())
        try store.append(org: seeded, stream: "x", expectedVersion: .noStream, events: [sampleEvent(0)],
                         metadata: testMetadata)
        let commands = try [
            // Stale: "x" is at 1, not 5; its second event must be skipped, not appended.
            AppendCommand(org: seeded, stream: "x", expectedVersion: .exactly(5),
                          events: [sampleEvent(1), sampleEvent(2)], metadata: testMetadata),
            AppendCommand(org: fresh, stream: "z", expectedVersion: .exactly(1), events: [sampleEvent(3)],
                          metadata: testMetadata),
            AppendCommand(org: seeded, stream: "y", expectedVersion: .noStream,
                          events: [sampleEvent(4), sampleEvent(5)], metadata: testMetadata),
        ]
        let connection = try fixture.appConnection()
        let results = try AppendStatement.run(commands, on: connection, in: .orgs([seeded, fresh]))

        #expect(results.count == 3)
        #expect(results[0] == .failure(.wrongExpectedVersion(stream: "x", expected: .exactly(5), actual: 1)))
        #expect(results[1] == .failure(.wrongExpectedVersion(stream: "z", expected: .exactly(1), actual: 0)))
        let appended = try #require(try? results[2].get())
        #expect(appended.map(\.orgSeq) == [2, 3])
        #expect(appended.map(\.streamVersion) == [1, 2])
        #expect(appended.map(\.eventId) == commands[2].events.map(\.eventId))

        #expect(try store.readHistory(org: seeded).map(\.streamId) == ["x", "y", "y"])
        #expect(try store.readHistory(org: fresh).isEmpty)
        let counters = try fixture.ownerConnection().query("""
            SELECT org_id::text AS org, last_seq FROM event_orgs WHERE org_id IN ($1::uuid, $2::uuid)
            """, [.text(seeded.uuidString), .text(fresh.uuidString)]).rows
        let lastSeqs = try Dictionary(uniqueKeysWithValues: counters.map {
            try ($0.string("org"), $0.int("last_seq"))
        })
        #expect(lastSeqs == [seeded.uuidString.lowercased(): 3, fresh.uuidString.lowercased(): 0])
        #expect(try AuditVerifier.verify(on: fixture.ownerConnection()) == [])
    }
}
