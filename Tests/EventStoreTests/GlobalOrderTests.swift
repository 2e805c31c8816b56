import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// Issue 3, tests 1 and 2: a storm of concurrent appenders with rollbacks, read by a global subscriber (exactly
/// once), a naive `global_pos > last` reader (misses events), and a sampler of one org's history (never a hole).
@Suite struct GlobalOrderTests {
    @Test func theSubscriberSeesEveryCommittedEventOnceTheNaiveReaderMissesSomeAndNoOrgHasAHole() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store(poolSize: 17)
        let orgs = (0..<4).map { _ in UUID() }
        let slowOrg = UUID()
        let committed = Locked<[UUID: UUID]>([:]) // event id → org
        let rollbacks = Locked(0)
        let stormDone = Locked(false)

        // The global subscriber: records every event it is handed, with its checkpoint.
        let seen = Locked<[(UUID, GlobalCheckpoint)]>([])
        let subscriptionErrors = Locked<[String]>([])
        let subscription = Subscription(
            name: "storm", configuration: fixture.appConfiguration(),
            options: .init(batchSize: 25, idlePollInterval: 0.01),
            onError: { error in subscriptionErrors.withLock { $0.append(String(describing: error)) } },
            handler: { events, _ in seen.withLock { $0 += events.map { ($0.eventId, $0.checkpoint) } } })
        subscription.start()

        // The control: reads by position alone and remembers the highest position it saw (as the owner: row-level
        // security keeps the application role to one org's rows, and this reader is not the service).
        let naiveSeen = Locked<Set<UUID>>([])
        let naiveLast = Locked(0)
        let naive = onThread {
            do {
                let connection = try fixture.ownerConnection()
                while true {
                    let finished = stormDone.value
                    let rows = try connection.query(
                        "SELECT global_pos, event_id FROM events WHERE global_pos > $1::bigint ORDER BY global_pos",
                        [.int(naiveLast.value)]).rows
                    for row in rows {
                        let position = try row.int("global_pos")
                        naiveSeen.withLock { _ = $0.insert(UUID(uuidString: try! row.string("event_id"))!) }
                        naiveLast.withLock { $0 = max($0, position) }
                    }
                    if finished && rows.isEmpty { break }
                    Thread.sleep(forTimeInterval: 0.001)
                }
            } catch {
                Issue.record("naive reader: \(error)")
            }
        }

        // The sampler: org 0's history must always be 1…n.
        let samples = Locked(0)
        let holes = Locked<[[Int]]>([])
        let sampler = onThread {
            do {
                let connection = try fixture.appConnection()
                while !stormDone.value {
                    let seqs = try EventReader.readHistory(org: orgs[0], limit: 100_000, on: connection,
                                                           in: .org(orgs[0])).map(\.orgSeq)
                    if seqs != Array(0..<seqs.count).map({ $0 + 1 }) { holes.withLock { $0.append(seqs) } }
                    samples.withLock { $0 += 1 }
                }
            } catch {
                Issue.record("sampler: \(error)")
            }
        }

        // A deliberately long transaction: it takes a global position, then commits only after the naive reader has
        // moved past that position (events of later positions committed first). The naive reader must miss it.
        let slowInserted = DispatchSemaphore(value: 0)
        let slowEvent = Locked<UUID?>(nil)
        let slow = onThread {
            do {
                let recorded = try store.transact(in: .org(slowOrg), maxAttempts: 1) { transaction in
                    let recorded = try transaction.append(org: slowOrg, stream: "slow", expectedVersion: .noStream,
                                                          events: [sampleEvent(0)], metadata: testMetadata)
                    slowInserted.signal()
                    _ = waitUntil(timeout: 20) { naiveLast.value > recorded[0].globalPosition }
                    return recorded
                }
                slowEvent.withLock { $0 = recorded[0].eventId }
                committed.withLock { $0[recorded[0].eventId] = slowOrg }
            } catch {
                Issue.record("slow appender: \(error)")
                slowInserted.signal()
            }
        }
        slowInserted.wait()

        // The storm: 16 appenders, random sleeps inside their transactions, 20% rolled back after inserting.
        onThreads(16) { index in
            for round in 0..<30 {
                let org = orgs[(index + round) % orgs.count]
                let rollBack = Int.random(in: 0..<10) < 2
                do {
                    let recorded = try store.transact(in: .org(org), maxAttempts: 1) { transaction in
                        Thread.sleep(forTimeInterval: Double.random(in: 0...0.003))
                        let events = (0..<Int.random(in: 1...2)).map { sampleEvent(index * 1000 + round * 10 + $0) }
                        let recorded = try transaction.append(org: org, stream: "writer-\(index)",
                                                              expectedVersion: .any, events: events,
                                                              metadata: testMetadata)
                        Thread.sleep(forTimeInterval: Double.random(in: 0...0.003))
                        if rollBack { throw DeliberateRollback() }
                        return recorded
                    }
                    committed.withLock { for event in recorded { $0[event.eventId] = org } }
                } catch is DeliberateRollback {
                    rollbacks.withLock { $0 += 1 }
                } catch {
                    Issue.record("appender \(index): \(error)")
                }
            }
        }
        slow.wait()
        stormDone.withLock { $0 = true }
        naive.wait()
        sampler.wait()

        let expected = committed.value
        #expect(waitUntil(timeout: 30) { seen.value.count >= expected.count })
        Thread.sleep(forTimeInterval: 0.2) // time for a duplicate to show up, if the subscriber delivered one
        subscription.stop()

        // 1. The subscriber saw every committed event exactly once, in checkpoint order; rolled-back ones never.
        let seenIds = seen.value.map(\.0)
        #expect(rollbacks.value > 0)
        #expect(seenIds.count == expected.count)
        let notSeen = Set(expected.keys).subtracting(seenIds)
        let seenButNotCommitted = Set(seenIds).subtracting(expected.keys)
        #expect(notSeen.count == 0)
        #expect(seenButNotCommitted.count == 0)
        let checkpoints = seen.value.map(\.1)
        #expect(zip(checkpoints, checkpoints.dropFirst()).allSatisfy { $0 < $1 })
        #expect(subscriptionErrors.value == [])
        // The control missed at least the slow transaction's event.
        let missed = Set(expected.keys).subtracting(naiveSeen.value)
        #expect(!missed.isEmpty)
        #expect(slowEvent.value.map(missed.contains) == true)

        // 2. Every org's org_seq is 1…n, n = its committed events; the chains verify; the sampler never saw a hole.
        let connection = try fixture.ownerConnection()
        let counts = try connection.query(
            "SELECT org_id, count(*) AS n, min(org_seq) AS low, max(org_seq) AS high FROM events GROUP BY org_id").rows
        #expect(counts.count == orgs.count + 1)
        for row in counts {
            let org = UUID(uuidString: try row.string("org_id"))!
            let committedHere = expected.values.filter { $0 == org }.count
            #expect(try row.int("n") == committedHere)
            #expect(try row.int("low") == 1)
            #expect(try row.int("high") == committedHere)
        }
        #expect(try AuditVerifier.verify(on: connection) == [])
        #expect(samples.value > 0)
        #expect(holes.value == [])
    }
}
