import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct AppendTests {
    struct BuyerCreated: EventPayload, Equatable {
        static let eventType = "BuyerCreated"
        static let schemaVersion = 2
        var guid: String
        var externalId: String

        /// Version 1 called the field `external`.
        static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
            guard schemaVersion == 1, case .object(var members) = data else { return data }
            members["externalId"] = members.removeValue(forKey: "external")
            return .object(members)
        }
    }

    @Test func severalEventsInOneCallGetConsecutiveSeqsVersionsAndOneChain() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        let first = try store.append(org: org, stream: "buyer-1", expectedVersion: .noStream,
                                     events: [sampleEvent(1), sampleEvent(2), sampleEvent(3)], metadata: testMetadata)
        let second = try store.append(org: org, stream: "buyer-2", expectedVersion: .noStream,
                                      events: [sampleEvent(4), sampleEvent(5)], metadata: testMetadata)
        #expect(first.map(\.orgSeq) == [1, 2, 3])
        #expect(first.map(\.streamVersion) == [1, 2, 3])
        #expect(second.map(\.orgSeq) == [4, 5])
        #expect(second.map(\.streamVersion) == [1, 2])
        #expect(first[0].previousHash == EventChain.genesisHash)
        #expect(first[1].previousHash == first[0].hash)
        #expect(second[0].previousHash == first[2].hash)
        #expect(Set(first.map(\.transactionId)).count == 1)
        #expect(first[0].transactionId != second[0].transactionId)

        let history = try store.readHistory(org: org)
        #expect(history == first + second)
        #expect(try AuditVerifier.verify(on: fixture.ownerConnection()) == [])
    }

    @Test func aWrongExpectedVersionIsATypedConflictWithTheActualVersion() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(1)],
                         metadata: testMetadata)
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .noStream, actual: 1)) {
            try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(2)],
                             metadata: testMetadata)
        }
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .exactly(3), actual: 1)) {
            try store.append(org: org, stream: "s", expectedVersion: .exactly(3), events: [sampleEvent(2)],
                             metadata: testMetadata)
        }
        try store.append(org: org, stream: "s", expectedVersion: .exactly(1), events: [sampleEvent(2)],
                         metadata: testMetadata)
        let any = try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(3)],
                                   metadata: testMetadata)
        #expect(any.map(\.streamVersion) == [3])
        #expect(try store.readHistory(org: org).map(\.orgSeq) == [1, 2, 3])
    }

    @Test func readingAStreamAndAHistoryKeepsOrgsAndStreamsApart() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let (org, other) = (UUID(), UUID())
        for number in 1...4 {
            try store.append(org: org, stream: number % 2 == 0 ? "even" : "odd", expectedVersion: .any,
                             events: [sampleEvent(number)], metadata: testMetadata)
            try store.append(org: other, stream: "even", expectedVersion: .any, events: [sampleEvent(number * 10)],
                             metadata: testMetadata)
        }
        let even = try store.readStream(org: org, stream: "even")
        #expect(even.map { $0.data["number"] } == [.integer(2), .integer(4)])
        #expect(even.map(\.streamVersion) == [1, 2])
        #expect(try store.readStream(org: org, stream: "even", fromVersion: 2).map(\.streamVersion) == [2])
        #expect(try store.readStream(org: org, stream: "missing") == [])
        let history = try store.readHistory(org: org, fromSeq: 2, limit: 2)
        #expect(history.map(\.orgSeq) == [2, 3])
        #expect(history.map { $0.data["number"] } == [.integer(2), .integer(3)])
        #expect(try store.readHistory(org: other).map(\.orgSeq) == [1, 2, 3, 4])
        #expect(history[0].metadata == testMetadata)
        #expect(history[0].recordedDate != nil)
    }

    @Test func typedPayloadsRoundTripAndOldSchemaVersionsStillDecode() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        let buyer = BuyerCreated(guid: "g_1", externalId: "user-1")
        try store.append(org: org, stream: "buyer-g_1", expectedVersion: .noStream, events: [try NewEvent(buyer)],
                         metadata: testMetadata)
        let old = NewEvent(type: "BuyerCreated", schemaVersion: 1,
                           data: .object(["guid": .string("g_2"), "external": .string("user-2")]))
        try store.append(org: org, stream: "buyer-g_2", expectedVersion: .noStream, events: [old],
                         metadata: testMetadata)
        let history = try store.readHistory(org: org)
        #expect(history.map(\.schemaVersion) == [2, 1])
        #expect(try history.map { try $0.decode(BuyerCreated.self) }
                == [buyer, BuyerCreated(guid: "g_2", externalId: "user-2")])
    }

    @Test func aRolledBackAppendLeavesNoHole() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(1)], metadata: testMetadata)
        #expect(throws: DeliberateRollback.self) {
            try store.transact(in: .org(org)) { transaction in
                try transaction.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(2)],
                                       metadata: testMetadata)
                throw DeliberateRollback()
            }
        }
        try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(3)], metadata: testMetadata)
        let history = try store.readHistory(org: org)
        #expect(history.map(\.orgSeq) == [1, 2])
        #expect(history.map { $0.data["number"] } == [.integer(1), .integer(3)])
        #expect(try AuditVerifier.verify(org: org, on: fixture.ownerConnection()) == [])
    }

    @Test func transactReRunsTheDeciderWhenTheStreamMovedAndGivesUpAfterTheLimit() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .any, events: [sampleEvent(1)], metadata: testMetadata)
        let attempts = Locked(0)
        let recorded = try store.transact(in: .org(org), maxAttempts: 3) { transaction in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            let version = try transaction.streamVersion(org: org, stream: "s")
            if attempt == 1 {
                // A racer commits between our read and our append.
                try fixture.store(poolSize: 1).append(org: org, stream: "s", expectedVersion: .exactly(version),
                                                      events: [sampleEvent(99)], metadata: testMetadata)
            }
            return try transaction.append(org: org, stream: "s", expectedVersion: .exactly(version),
                                          events: [sampleEvent(2)], metadata: testMetadata)
        }
        #expect(attempts.value == 2)
        #expect(recorded.map(\.streamVersion) == [3])

        attempts.withLock { $0 = 0 }
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: "s", expected: .exactly(1), actual: 3)) {
            try store.transact(in: .org(org), maxAttempts: 2) { transaction in
                attempts.withLock { $0 += 1 }
                return try transaction.append(org: org, stream: "s", expectedVersion: .exactly(1),
                                              events: [sampleEvent(3)], metadata: testMetadata)
            }
        }
        #expect(attempts.value == 2)
    }

    @Test func parallelAppendsWithTheSameExpectedVersionLetExactlyOneThrough() throws {
        let fixture = try EventStoreFixture.migrated()
        // Racers in separate transactions, as in separate processes: without group commit of commands (which would
        // run them one after another in one transaction, each reading the version the one before it left).
        let store = EventLog(pool: Pool(configuration: fixture.appConfiguration(poolSize: 8)), commandBatch: 1)
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(0)],
                         metadata: testMetadata)
        let outcomes = Locked<[Result<Int, EventStoreError>]>([])
        let allRead = ThreadBarrier(parties: 8)
        onThreads(8) { index in
            do {
                let recorded = try store.transact(in: .org(org), maxAttempts: 1) { transaction in
                    // Every racer passes the version check before any of them appends: the unique constraint decides.
                    let version = try transaction.streamVersion(org: org, stream: "s")
                    #expect(allRead.arrive(), "every racer read the version before any appended")
                    return try transaction.append(org: org, stream: "s", expectedVersion: .exactly(version),
                                                  events: [sampleEvent(index + 1)], metadata: testMetadata)
                }
                outcomes.withLock { $0.append(.success(recorded[0].streamVersion)) }
            } catch let error as EventStoreError {
                outcomes.withLock { $0.append(.failure(error)) }
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        let results = outcomes.value
        #expect(results.count == 8)
        #expect(results.compactMap { try? $0.get() } == [2])
        for case .failure(let error) in results {
            guard case .wrongExpectedVersion(stream: "s", expected: .exactly(1), _) = error else {
                Issue.record("unexpected error \(error)")
                continue
            }
        }
        #expect(try store.readStream(org: org, stream: "s").map(\.streamVersion) == [1, 2])
        #expect(try AuditVerifier.verify(org: org, on: fixture.ownerConnection()) == [])
    }

    @Test func aDuplicateEventIdIsRefusedAndLeavesNoTrace() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        let event = sampleEvent(1)
        try store.append(org: org, stream: "a", expectedVersion: .any, events: [event], metadata: testMetadata)
        #expect(throws: EventStoreError.duplicateEvent(eventIds: [event.eventId])) {
            try store.append(org: org, stream: "b", expectedVersion: .any, events: [event], metadata: testMetadata)
        }
        #expect(try store.readHistory(org: org).count == 1)
        #expect(try AuditVerifier.verify(org: org, on: fixture.ownerConnection()) == [])
    }

    /// The values a caller supplies that `events`' CHECK constraints used to guard (migration 0012 moved them into
    /// `event_append`): each refusal fails the whole call, with check_violation naming the rule, and records nothing.
    @Test(arguments: [("", "Recorded", 1, "stream_id must not be empty"), ("s", "", 1, "event_type must not be empty"),
                      ("s", "Recorded", 0, "schema_version must be at least 1")])
    func anEmptyStreamOrTypeOrASchemaVersionBelowOneIsRefused(
        stream: String, type: String, schemaVersion: Int, message: String
    ) throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        let event = NewEvent(type: type, schemaVersion: schemaVersion, data: .object(["n": .integer(1)]))
        let error = #expect(throws: PostgresError.self) {
            try store.append(org: org, stream: stream, expectedVersion: .any, events: [event], metadata: testMetadata)
        }
        #expect(error?.sqlState == "23514")
        #expect(error?.message == "event_append: " + message)
        #expect(try store.readHistory(org: org).isEmpty)
    }

    /// `schema_version` is an `integer` column: a larger version is refused before anything is sent.
    @Test func aSchemaVersionBeyondTheIntegerColumnIsInvalidEventData() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let org = UUID()
        let event = NewEvent(type: "Recorded", schemaVersion: Int(Int32.max) + 1, data: .object([:]))
        #expect(throws: EventStoreError.invalidEventData("schema version 2147483648 does not fit the schema_version "
                                                         + "column")) {
            try store.append(org: org, stream: "s", expectedVersion: .any, events: [event], metadata: testMetadata)
        }
        #expect(try store.readHistory(org: org).isEmpty)
    }
}
