import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// `EventLog.append`'s group commit: concurrent appends share a transaction, yet each caller gets its own outcome.
@Suite struct GroupCommitTests {
    @Test(arguments: [0, 2])
    func concurrentAppendsToOneOrgEachGetTheirOwnOutcome(lanes: Int) throws {
        let fixture = try EventStoreFixture.migrated()
        let store = EventLog(pool: Pool(configuration: fixture.appConfiguration(poolSize: 8)), batchLanes: lanes)
        let org = UUID()
        let recordedTwice = sampleEvent(0)
        try store.append(org: org, stream: "first", expectedVersion: .noStream, events: [recordedTwice],
                         metadata: testMetadata)
        let outcomes = Locked<[Int: Result<[RecordedEvent], EventStoreError>]>([:])
        // 0: re-appends an existing event id; odd: all race for the same new stream; even: each its own stream.
        onThreads(24) { index in
            let result: Result<[RecordedEvent], EventStoreError>
            do {
                let events = index == 0 ? [recordedTwice] : [sampleEvent(index), sampleEvent(100 + index)]
                let stream = index % 2 == 1 ? "shared" : "own-\(index)"
                result = .success(try store.append(org: org, stream: stream, expectedVersion: .noStream,
                                                   events: events, metadata: testMetadata))
            } catch let error as EventStoreError {
                result = .failure(error)
            } catch {
                Issue.record("unexpected error \(error)")
                return
            }
            outcomes.withLock { $0[index] = result }
        }
        let results = outcomes.value
        #expect(results.count == 24)
        #expect(results[0] == .failure(.duplicateEvent(eventIds: [recordedTwice.eventId])))
        let shared = (1..<24).filter { $0 % 2 == 1 }.map { results[$0]! }
        #expect(shared.filter { (try? $0.get()) != nil }.count == 1)
        for case .failure(let error) in shared {
            #expect(error == .wrongExpectedVersion(stream: "shared", expected: .noStream, actual: 2))
        }
        for index in stride(from: 2, to: 24, by: 2) {
            let recorded = try #require(try? results[index]!.get())
            #expect(recorded.map(\.streamVersion) == [1, 2] && recorded[1].orgSeq == recorded[0].orgSeq + 1)
            #expect(recorded[1].previousHash == recorded[0].hash)
        }
        // 1 + 11 own streams + 1 shared, two events each (the first one): gapless and verified.
        let history = try store.readHistory(org: org)
        #expect(history.map(\.orgSeq) == Array(1...(1 + 12 * 2)))
        #expect(try AuditVerifier.verify(org: org, on: fixture.ownerConnection()) == [])
    }

    @Test func lanesBatchSeveralOrgsAndEveryChainStillVerifies() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = EventLog(pool: Pool(configuration: fixture.appConfiguration(poolSize: 8)), batchLanes: 2)
        let orgs = (0..<6).map { _ in UUID() }
        let counts = Locked<[UUID: Int]>([:])
        onThreads(12) { writer in
            var versions = [Int](repeating: 0, count: orgs.count)
            for round in 0..<30 {
                let org = (writer + round) % orgs.count
                do {
                    try store.append(org: orgs[org], stream: "writer-\(writer)",
                                     expectedVersion: versions[org] == 0 ? .noStream : .exactly(versions[org]),
                                     events: [sampleEvent(round)], metadata: testMetadata)
                    versions[org] += 1
                    counts.withLock { $0[orgs[org], default: 0] += 1 }
                } catch {
                    Issue.record("append failed: \(error)")
                }
            }
        }
        for org in orgs {
            let history = try store.readHistory(org: org)
            #expect(history.map(\.orgSeq) == Array(1...counts.value[org]!))
        }
        #expect(counts.value.values.reduce(0, +) == 12 * 30)
        #expect(try AuditVerifier.verify(on: fixture.ownerConnection()) == [])
    }
}
