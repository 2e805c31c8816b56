import Dispatch
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport
@testable import Workers

/// Two-phase jobs (issue 14, docs/jobs.md "One job, in a worker"): the claim commits before the I/O, no transaction
/// is open while the effect runs, and the outcome is recorded only by the attempt that still holds the job.
@Suite struct TwoPhaseJobTests {
    /// A kind whose effect waits for the test's gate (attempts numbered from 1) and records the attempt's number.
    final class GatedKind: @unchecked Sendable {
        static let name = "gated-test"
        let gates = Mutex<[Int: DispatchSemaphore]>([:])
        let started = Mutex<[Int]>([])
        let attempts = Mutex(0)

        /// Makes attempt `number` wait until `open(number)`.
        func hold(_ number: Int) { gates.withLock { $0[number] = DispatchSemaphore(value: 0) } }
        func open(_ number: Int) { gates.withLock { $0[number] }?.signal() }

        var kind: JobKind {
            JobKind(name: Self.name, queue: ProbeJob.queue, retryDelays: [10], jobs: { _ in [] }) { [self] run in
                let number = attempts.withLock { count in
                    count += 1
                    return count
                }
                let first = run.job.memo["firstAttemptAt"] ?? .integer(Int64(number))
                try run.remember(.object(["firstAttemptAt": first]))
                return .effect(JobEffect(timeout: 5, perform: { [self] () -> Int in
                    started.withLock { $0.append(number) }
                    gates.withLock { $0[number] }?.wait()
                    return number
                }, record: { number, _ in .done("attempt \(number)") }))
            }
        }
    }

    private static func gatedJob(_ fixture: JobFixture, registry: JobRegistry) throws -> (Int, JobStream.Entry) {
        let id = try #require(try fixture.pool.transaction { connection in
            try JobStore.insert(NewJob(kind: GatedKind.name, orgId: nil, payload: .object([:]),
                                       dedupeKey: "gated:\(UUID().uuidString)"), now: Date(), on: connection)
        })
        #expect(try JobRelay(pool: fixture.pool, redis: fixture.redisPool, registry: registry).relayDue() == 1)
        let entry = try #require(try fixture.job(id).streamEntry)
        return (id, JobStream.Entry(id: entry, jobId: id))
    }

    private static func consumer(_ fixture: JobFixture, registry: JobRegistry, clock: ManualClock) -> JobConsumer {
        JobConsumer(queue: ProbeJob.queue, name: "test-\(UUID().uuidString)", store: fixture.store,
                    redis: fixture.redisPool, registry: registry, visibilityTimeout: 60, clock: clock.function,
                    blockMilliseconds: 100)
    }

    @Test func theEffectRunsWithTheClaimCommittedAndNoTransactionOpen() throws {
        let fixture = try JobFixture()
        let gated = GatedKind()
        let registry = JobRegistry([gated.kind])
        let (id, entry) = try Self.gatedJob(fixture, registry: registry)
        let clock = ManualClock()
        gated.hold(1)
        let result = Mutex<JobConsumer.Result?>(nil)
        let background = DispatchGroup()
        let consumer = Self.consumer(fixture, registry: registry, clock: clock)
        DispatchQueue.global().async(group: background) {
            let handled = try? consumer.handle(entry)
            result.withLock { $0 = handled }
        }
        #expect(fixture.waitUntil(timeout: 20) { gated.started.withLock { $0 } == [1] })
        // While the effect runs: the claim is committed (attempt id, lease, memo) and the row is not locked.
        let claimed = try fixture.job(id)
        #expect(claimed.state == .enqueued && claimed.attemptId != nil)
        #expect(claimed.leaseUntil == clock.now.addingTimeInterval(5 + 60))
        #expect(claimed.memo == .object(["firstAttemptAt": .integer(1)]))
        #expect(try fixture.pool.transaction { try JobStore.lockForRun(id, on: $0) }?.id == id)
        let open = try fixture.ownerConnection().query("""
            SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state LIKE 'idle in transaction%'
            """).rows[0].int("n")
        #expect(open == 0)
        gated.open(1)
        background.wait()
        #expect(result.withLock { $0 } == .done)
        let done = try fixture.job(id)
        #expect(done.state == .done && done.outcome == "attempt 1" && done.leaseUntil == nil)
        #expect(done.attemptId == claimed.attemptId)
    }

    @Test func aRunningLeaseKeepsOthersOutAndALateOutcomeOfASupersededAttemptIsDropped() throws {
        let fixture = try JobFixture()
        let gated = GatedKind()
        let registry = JobRegistry([gated.kind])
        let (id, entry) = try Self.gatedJob(fixture, registry: registry)
        let clock = ManualClock()
        gated.hold(1)
        let first = Mutex<JobConsumer.Result?>(nil)
        let background = DispatchGroup()
        let slow = Self.consumer(fixture, registry: registry, clock: clock)
        DispatchQueue.global().async(group: background) {
            let handled = try? slow.handle(entry)
            first.withLock { $0 = handled }
        }
        #expect(fixture.waitUntil(timeout: 20) { gated.started.withLock { $0 } == [1] })
        let firstAttempt = try fixture.job(id).attemptId

        // Another worker gets the entry (a duplicate, or reclaimed) while the lease runs: busy, nothing claimed.
        let other = Self.consumer(fixture, registry: registry, clock: clock)
        #expect(try other.handle(entry) == .busy)
        #expect(try fixture.job(id).attemptId == firstAttempt)

        // The lease passed (the first worker looks dead): the next worker claims a new attempt and finishes it.
        clock.advance(5 + 60 + 1)
        #expect(try other.handle(entry) == .done)
        let done = try fixture.job(id)
        #expect(done.outcome == "attempt 2" && done.attemptId != firstAttempt)
        // The memo of the first attempt is what the second one saw.
        #expect(done.memo == .object(["firstAttemptAt": .integer(1)]))

        // The first worker comes back: its outcome belongs to a superseded attempt and changes nothing.
        gated.open(1)
        background.wait()
        #expect(first.withLock { $0 } == .dropped)
        #expect(try fixture.job(id).outcome == "attempt 2")
        #expect(gated.started.withLock { $0 } == [1, 2])
    }
}
