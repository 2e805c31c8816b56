import Commands
import Dispatch
import Domain
import EventStore
import Foundation
import HTTPClient
import Postgres
import Synchronization
import Testing
import TestSupport
@testable import Workers

/// The job machinery (issue 6, docs/jobs.md) with real Postgres, Redis and `handoff work` processes.
@Suite struct JobMachineryTests {
    @Test func threeWorkerProcessesDrainAThousandJobsEveryOneDoneNoneTwice() throws {
        let fixture = try JobFixture()
        let ids = try fixture.insertProbes(1000)
        let workers = try (0..<3).map { _ in
            try fixture.worker(["--only", "relay,sweeper,probe"], visibilityTimeout: 30)
        }
        let drained = try fixture.waitUntil(timeout: 180) { try fixture.counts()[.done] == 1000 }
        for worker in workers { worker.signal(SIGTERM) }
        let exits = try workers.map { try $0.wait(timeout: 30) }
        let counts = try fixture.counts()
        #expect(drained, "done: \(counts); \(workers.map { $0.output().suffix(400) })")
        #expect(exits == [.exited(0), .exited(0), .exited(0)])
        let done = try fixture.pushed("done")
        #expect(done.count == 1000)
        #expect(Set(done) == Set(ids))
        #expect(try fixture.counts() == [.done: 1000, .pending: 0, .enqueued: 0, .dead: 0])
        // Nothing is left in the stream: every entry was acknowledged and deleted.
        let length = try fixture.redis.cli("XLEN", JobStream.key(ProbeJob.queue))
        #expect(length.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func aWorkerKilledInTheMiddleOfAJobLeavesItToAnotherWhoFinishesIt() throws {
        let fixture = try JobFixture()
        // A long job, so the kill lands in its middle even on a loaded 2-core machine.
        let id = try #require(try fixture.insertProbes(1, sleepMilliseconds: 15_000).first)
        let first = try fixture.worker(["--only", "relay,probe"], visibilityTimeout: 2)
        #expect(try fixture.waitUntil(timeout: 120) { try fixture.pushed("started") == [id] }, "\(first.output())")
        // The job reached the worker through Redis: its entry is pending for the first worker's consumer. (Its
        // `stream_entry` column may stay empty: the relay skips the row when the worker locked it first.)
        let pending = try fixture.redisPool.command(["XPENDING", JobStream.key(ProbeJob.queue), JobStream.group])
        #expect(pending.elements?.first?.integerValue == 1, "\(pending)")
        first.signal(SIGKILL)
        #expect(try first.wait(timeout: 30) == .signalled(SIGKILL))
        #expect(try fixture.job(id).state == .enqueued)
        #expect(try fixture.pushed("done").isEmpty)

        // Only a consumer: no relay, no sweeper. Nothing but XAUTOCLAIM can hand it the killed worker's entry.
        let second = try fixture.worker(["--only", "probe"], visibilityTimeout: 2)
        let finished = try fixture.waitUntil(timeout: 180) { try fixture.job(id).state == .done }
        second.signal(SIGTERM)
        #expect(try second.wait(timeout: 60) == .exited(0))
        #expect(finished, "\(second.output())")
        #expect(try fixture.pushed("started") == [id, id])
        #expect(try fixture.pushed("done") == [id])
        #expect(try fixture.job(id).attempt == 0)
    }

    @Test func sigtermLetsTheJobInProgressFinishLeavesTheRestForOthersAndExitsZero() throws {
        let fixture = try JobFixture()
        _ = try fixture.insertProbes(5, sleepMilliseconds: 3000)
        // All five are in the stream before the worker starts; its one consumer reads one entry at a time.
        #expect(try fixture.relay().relayDue() == 5)
        let worker = try fixture.worker(["--only", "probe"], visibilityTimeout: 600, threads: 1)
        #expect(try fixture.waitUntil(timeout: 120) { try !fixture.pushed("started").isEmpty }, "\(worker.output())")
        let signalled = Date()
        worker.signal(SIGTERM)
        let exit = try worker.wait(timeout: 60)
        let seconds = Date().timeIntervalSince(signalled)
        #expect(exit == .exited(0), "\(worker.output())")
        // The job in progress (≤ 3 s left) finishes; the four others are not started (they would take 12 s more).
        #expect(seconds < 30)
        let started = try fixture.pushed("started")
        #expect(started.count == 1)
        #expect(try fixture.pushed("done") == started)
        #expect(try fixture.job(try #require(started.first)).state == .done)
        #expect(try fixture.counts() == [.done: 1, .pending: 0, .enqueued: 4, .dead: 0])
        // The stopped consumer never read them: none waits in its pending list for the visibility timeout, all four
        // stay in the stream for the next worker to read at once.
        let pending = try fixture.redisPool.command(["XPENDING", JobStream.key(ProbeJob.queue), JobStream.group])
        #expect(pending.elements?.first?.integerValue == 0, "\(pending)")
        #expect(try fixture.redisPool.command(["XLEN", JobStream.key(ProbeJob.queue)]).integerValue == 4)
    }

    @Test func anUnknownRoleIsRefusedWithExitStatus2NamingIt() throws {
        let fixture = try JobFixture()
        let worker = try fixture.worker(["--only", "relay,mailer"])
        #expect(try worker.wait(timeout: 60) == .exited(2))
        #expect(worker.output().contains("unknown role 'mailer'"), "\(worker.output())")
    }

    @Test func redisRestartedEmptyWhileJobsAreEnqueuedLosesNothing() throws {
        let fixture = try JobFixture()
        let ids = try fixture.insertProbes(50)
        #expect(try fixture.relay().relayDue() == 50)
        #expect(try fixture.counts()[.enqueued] == 50)

        try fixture.redis.restartEmpty()
        let consumer = fixture.consumer()
        #expect(try consumer.step() == 0)  // The group is recreated on an empty stream: nothing to read.
        // A sweeper that checks at once (its clock a second ahead of every enqueue) finds every entry gone.
        let sweeper = JobSweeper(pool: fixture.pool, redis: fixture.redisPool, registry: fixture.registry,
                                 checkAfter: 0, clock: { Date().addingTimeInterval(1) })
        let swept = try sweeper.sweep()
        #expect(swept.lost.sorted() == ids.sorted())  // Every entry id was noted: Redis lost them.
        #expect(swept.unnoted == [])
        #expect(try fixture.counts()[.pending] == 50)

        // Requeued jobs are due from the sweeper's "now" on.
        #expect(try fixture.relay(clock: { Date().addingTimeInterval(2) }).relayDue() == 50)
        var handled = 0
        for _ in 0..<50 where handled < 50 { handled += try consumer.step() }
        #expect(handled == 50)
        #expect(try fixture.counts() == [.done: 50, .pending: 0, .enqueued: 0, .dead: 0])
        #expect(try fixture.pushed("done").sorted() == ids.sorted())
    }

    @Test func theSweeperTellsEntriesRedisLostFromEntriesNeverNoted() throws {
        let fixture = try JobFixture()
        let ids = try fixture.insertProbes(3)
        #expect(try fixture.relay().relayDue() == 3)
        // One entry deleted behind the relay's back (what a failover before replication does), one job whose relay
        // stopped before it noted its entry (no id on the row, the entry gone too), one left alone.
        let noted = try fixture.job(ids[0]).streamEntry
        let entry = try #require(noted)
        _ = try fixture.redisPool.command(["XDEL", JobStream.key(ProbeJob.queue), entry])
        let other = try #require(try fixture.job(ids[1]).streamEntry)
        _ = try fixture.redisPool.command(["XDEL", JobStream.key(ProbeJob.queue), other])
        try fixture.ownerConnection().execute("UPDATE jobs SET stream_entry = NULL WHERE job_id = \(ids[1])")
        let sweeper = JobSweeper(pool: fixture.pool, redis: fixture.redisPool, registry: fixture.registry,
                                 checkAfter: 0, clock: { Date().addingTimeInterval(1) })
        #expect(try sweeper.sweep() == JobSweeper.Sweep(lost: [ids[0]], unnoted: [ids[1]]))
        #expect(try fixture.job(ids[2]).state == .enqueued)
        #expect(try sweeper.sweep() == JobSweeper.Sweep())
    }

    @Test func theSweeperLeavesJobsRedisStillHoldsAlone() throws {
        let fixture = try JobFixture()
        _ = try fixture.insertProbes(5)
        #expect(try fixture.relay().relayDue() == 5)
        let sweeper = JobSweeper(pool: fixture.pool, redis: fixture.redisPool, registry: fixture.registry,
                                 checkAfter: 0, clock: { Date().addingTimeInterval(1) })
        #expect(try sweeper.sweep() == JobSweeper.Sweep())
        #expect(try fixture.counts()[.enqueued] == 5)
    }

    @Test func aJobThatAlwaysFailsWalksItsLadderEndsDeadAndJobsRetryRevivesIt() throws {
        let fixture = try JobFixture()
        let clock = ManualClock()
        let id = try #require(try fixture.insertProbes(1, fail: true, now: clock.now).first)
        let relay = fixture.relay(clock: clock.function)
        let consumer = fixture.consumer(clock: clock.function)
        for (index, delay) in ProbeJob.retryDelays.enumerated() {
            #expect(try relay.relayDue() == 1)
            #expect(try consumer.step() == 1)
            let job = try fixture.job(id)
            #expect(job.state == .pending)
            #expect(job.attempt == index + 1)
            #expect(job.lastError == "the probe was asked to fail")
            #expect(abs(job.runAt.timeIntervalSince(clock.now) - delay) < 0.01)
            // Not due before its rung of the ladder.
            clock.advance(delay - 1)
            #expect(try relay.relayDue() == 0)
            clock.advance(1)
        }
        #expect(try relay.relayDue() == 1)
        #expect(try consumer.step() == 1)
        let dead = try fixture.job(id)
        #expect(dead.state == .dead)
        #expect(dead.attempt == ProbeJob.retryDelays.count + 1)
        #expect(try fixture.pushed("started").count == ProbeJob.retryDelays.count + 1)
        #expect(try fixture.pushed("done").isEmpty)

        let listed = try fixture.jobsCommand(["list", "--state", "dead"])
        #expect(listed.status == .exited(0))
        let deadJobs = try #require(jsonLine(listed.output)?["jobs"] as? [[String: Any]])
        #expect(deadJobs.map { $0["id"] as? Int } == [id])

        let retried = try fixture.jobsCommand(["retry", String(id)])
        #expect(retried.status == .exited(0), "\(retried.output)")
        let revived = try #require(jsonLine(retried.output))
        #expect(revived["state"] as? String == "pending")
        #expect(revived["attempt"] as? Int == 0)
        #expect(revived["retries"] as? Int == 1)
        #expect(try fixture.job(id).state == .pending)
        let shown = try fixture.jobsCommand(["show", String(id)])
        #expect(jsonLine(shown.output)?["state"] as? String == "pending")

        // A job that is not dead cannot be retried; an unknown id is not found.
        #expect(try fixture.jobsCommand(["retry", String(id)]).status == .exited(1))
        #expect(try fixture.jobsCommand(["show", "999999"]).status == .exited(1))
        #expect(try fixture.jobsCommand(["list", "--state", "sleeping"]).status == .exited(2))
    }

    @Test func aRequeueMovesOnlyAJobStillEnqueuedWithTheEntryItWasGiven() throws {
        let fixture = try JobFixture()
        let id = try #require(try fixture.insertProbes(1).first)
        #expect(try fixture.relay().relayDue() == 1)
        let consumer = fixture.consumer()
        var handled = 0
        for _ in 0..<5 where handled < 1 { handled += try consumer.step() }
        #expect(try fixture.job(id).state == .done)
        // What the relay does after an XADD whose reply was lost (Redis added the entry and a worker ran the job):
        // the job stays done and is not run a second time.
        let now = Date()
        #expect(try fixture.pool.withConnection { try JobStore.requeue(id, entry: nil, now: now, on: $0) } == false)
        #expect(try fixture.job(id).state == .done)
        #expect(try fixture.relay().relayDue() == 0)
        #expect(try fixture.pushed("done") == [id])

        // The sweeper's case: an enqueued job goes back only with the entry the sweeper found gone.
        let other = try #require(try fixture.insertProbes(1).first)
        #expect(try fixture.relay().relayDue() == 1)
        let entry = try #require(try fixture.job(other).streamEntry)
        #expect(try fixture.pool.withConnection { try JobStore.requeue(other, entry: nil, now: now, on: $0) } == false)
        #expect(try fixture.job(other).state == .enqueued)
        #expect(try fixture.pool.withConnection { try JobStore.requeue(other, entry: entry, now: now, on: $0) })
        #expect(try fixture.job(other).state == .pending)
    }

    @Test func notingEntriesSkipsAJobAWorkerHoldsAndKeepsNoOtherWorkerWaiting() throws {
        let fixture = try JobFixture()
        let ids = try fixture.insertProbes(2)
        let (other, held) = (ids[0], ids[1])
        // Both enqueued and added to the stream, as the relay leaves them before it notes their entries.
        try fixture.pool.transaction { connection in
            for id in ids { try JobStore.markEnqueued(id, now: Date(), on: connection) }
        }
        let entries = try fixture.redisPool.withConnection { redis in
            try ids.map { (id: $0, entry: try JobStream.add(queue: ProbeJob.queue, jobId: $0, on: redis)) }
        }
        // A worker runs `held`: its row stays locked for 3 s (a slow SMTP transaction).
        let locked = DispatchSemaphore(value: 0)
        let background = DispatchGroup()
        DispatchQueue.global().async(group: background) {
            _ = try? fixture.pool.transaction { connection in
                _ = try JobStore.lockForRun(held, on: connection)
                locked.signal()
                usleep(3_000_000)
            }
        }
        locked.wait()
        let notedAfter = Mutex<Double?>(nil)
        let started = Date()
        DispatchQueue.global().async(group: background) {
            _ = try? fixture.pool.withConnection { try JobStore.noteEntries(entries, on: $0) }
            notedAfter.withLock { $0 = Date().timeIntervalSince(started) }
        }
        usleep(200_000)
        // Meanwhile another worker takes the other job: the relay must not be holding its row.
        let result = try fixture.consumer().handle(JobStream.Entry(id: entries[0].entry, jobId: other))
        background.wait()
        #expect(result == .done)
        #expect(try fixture.job(other).state == .done)
        let seconds = try #require(notedAfter.withLock { $0 })
        #expect(seconds < 2, "noting the entries waited \(seconds) s for the held row")
        #expect(try fixture.job(held).streamEntry == nil)
        #expect(try fixture.job(held).state == .enqueued)
    }

    @Test func slowJobsArrivingInWavesAreFinishedPromptlyNotAfterTheVisibilityTimeout() throws {
        let fixture = try JobFixture()
        // No sweeper, and a visibility timeout of 10 minutes: only prompt delivery finishes the jobs in time.
        let worker = try fixture.worker(["--only", "relay,probe"], visibilityTimeout: 600, threads: 4)
        var ids: [Int] = []
        for _ in 0..<8 {
            ids += try fixture.insertProbes(5, sleepMilliseconds: 300)
            usleep(150_000)
        }
        // 40 jobs of 300 ms on 4 threads take ~3 s; 90 s leaves room for a loaded 2-core machine.
        let started = Date()
        let finished = try fixture.waitUntil(timeout: 90) { try fixture.counts()[.done] == ids.count }
        let seconds = Date().timeIntervalSince(started)
        let counts = try fixture.counts()
        worker.signal(SIGTERM)
        #expect(try worker.wait(timeout: 60) == .exited(0))
        #expect(finished, "after \(seconds) s: \(counts); \(worker.output().suffix(600))")
        #expect(try fixture.pushed("done").sorted() == ids.sorted())
    }

    @Test func reclaimingWalksThePendingListFromTheCursorItWasLeftAt() throws {
        let fixture = try JobFixture()
        let ids = try fixture.insertProbes(3)
        #expect(try fixture.relay().relayDue() == 3)
        // A consumer reads all three entries and dies without acknowledging any.
        var read: [JobStream.Entry] = []
        for _ in 0..<3 where read.isEmpty {
            read = try fixture.redisPool.withConnection {
                try JobStream.read(queue: ProbeJob.queue, consumer: "dead", count: 10, blockMilliseconds: 100, on: $0)
            }
        }
        #expect(read.count == 3)
        // One entry per scan: from the cursor, each scan takes the next entry (from the head, it would take the
        // first one again and again, since claiming resets its idle time).
        var cursor = "0-0"
        var claimed: [Int] = []
        for _ in 0..<3 {
            let scan = try fixture.redisPool.withConnection {
                try JobStream.reclaim(queue: ProbeJob.queue, consumer: "rescuer", minIdleMilliseconds: 0, count: 1,
                                      cursor: cursor, on: $0)
            }
            claimed += scan.entries.compactMap(\.jobId)
            cursor = scan.next
        }
        #expect(claimed.count == 3)
        #expect(Set(claimed) == Set(ids))
    }

    @Test func aDuplicateStreamEntryRunsTheJobOnce() throws {
        let fixture = try JobFixture()
        let id = try #require(try fixture.insertProbes(1).first)
        #expect(try fixture.relay().relayDue() == 1)
        // A second entry for the job, as when the relay crashed after its XADD, before noting the entry, and the
        // sweeper requeued the job, which the relay then added again.
        _ = try fixture.redisPool.withConnection { connection in
            try connection.command(["XADD", JobStream.key(ProbeJob.queue), "*", "job", String(id)]).checked()
        }
        let consumer = fixture.consumer()
        var handled = 0
        for _ in 0..<5 where handled < 2 { handled += try consumer.step() }
        #expect(handled == 2)
        #expect(try fixture.pushed("done") == [id])
        #expect(try fixture.job(id).state == .done)
    }

    @Test func theDispatcherMakesOneJobPerEventEvenWhenAnEventIsSeenTwice() throws {
        let fixture = try JobFixture()
        let org = UUID()
        let sealed = try #require(SealedValue("pd1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
        let events = try fixture.store.append(
            org: org, stream: RecoveryStreams.request(UUID()), expectedVersion: .noStream,
            events: [try NewEvent(EmailRecoveryRequested(requestId: UUID().uuidString, projectId: UUID().uuidString,
                                                         email: sealed, emailRef: String(repeating: "a", count: 64),
                                                         language: "en"))],
            metadata: EventMetadata(actor: .system("test")))
        let registry = JobRegistry([RecoveryMailJob.kind(settings: RecoveryMailSettings(
            smtp: SMTPClient(configuration: SMTPConfiguration(url: "smtp://127.0.0.1:1")),
            fromAddress: "noreply@handoff.test",
            fromName: nil, sender: SendRecoveryMail(nil), publicBaseURL: "https://handoff.test"))])
        let first = try fixture.pool.transaction {
            try JobDispatcher.dispatch(events, registry: registry, now: Date(), on: $0)
        }
        let second = try fixture.pool.transaction {
            try JobDispatcher.dispatch(events, registry: registry, now: Date(), on: $0)
        }
        #expect((first, second) == (1, 0))
        let jobs = try JobStore.list(state: nil, org: org, limit: 10, on: fixture.ownerConnection())
        #expect(jobs.map(\.kind) == [RecoveryMailJob.name])
        #expect(jobs.first?.dedupeKey == "recovery-mail:\(events[0].eventId.uuidString.lowercased())")
        #expect(jobs.first?.payload["emailRef"]?.stringValue == String(repeating: "a", count: 64))
        #expect(jobs.first?.payload["emailHash"] == nil)
    }
}
