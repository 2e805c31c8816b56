import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

@Suite struct PoolTests {
    @Test func fiftyThreadsShareAPoolOfFourWithoutError() throws {
        let table = try PostgresFixture.table("shared", columns: "thread int, step int, PRIMARY KEY (thread, step)")
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 4, checkoutTimeout: 30))
        let threads = 50
        let steps = 4
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for step in 0..<steps {
                        let doubled = try pool.withConnection { connection in
                            try connection.queryPrepared("SELECT $1::int * 2 AS n", [.int(thread * 100 + step)])
                                .rows[0].int("n")
                        }
                        if doubled != (thread * 100 + step) * 2 {
                            failures.withLock { $0.append("thread \(thread) step \(step) got \(doubled)") }
                        }
                        try pool.transaction { tx in
                            try tx.query("INSERT INTO \(table) VALUES ($1, $2)", [.int(thread), .int(step)])
                        }
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(failures.withLock { $0 } == [])

        let rows = try pool.withConnection { try $0.query("SELECT thread, step FROM \(table)").rows }
        #expect(rows.count == threads * steps)
        let stats = pool.stats
        #expect(stats.inUse == 0)
        #expect(stats.waiting == 0)
        #expect(stats.open <= 4)
        #expect(stats.size == 4)
        pool.close()
    }

    @Test func aCheckoutFromAnExhaustedPoolTimesOutWithPoolTimeout() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1, checkoutTimeout: 0.5))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            _ = try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
            finished.signal()
        }.start()
        holding.wait()

        let started = Date()
        let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        let waited = Date().timeIntervalSince(started)
        #expect(error?.kind == .poolTimeout)
        #expect(waited >= 0.45)
        #expect(waited < 3)
        #expect(pool.stats.waiting == 0)

        release.signal()
        finished.wait()
        #expect(try pool.withConnection { try $0.query("SELECT 1 AS one").rows[0].int("one") } == 1)
        #expect(pool.stats == PoolStats(size: 1, open: 1, inUse: 0, waiting: 0))
    }

    @Test func aWaitingCheckoutGetsTheConnectionAsSoonAsItIsReturned() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1, checkoutTimeout: 10))
        let holding = DispatchSemaphore(value: 0)
        Thread {
            _ = try? pool.withConnection { _ in
                holding.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
        }.start()
        holding.wait()
        let started = Date()
        try pool.withConnection { _ in }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aWaiterGetsAFreshConnectionWhenTheOneItWaitedForBreaks() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 1, checkoutTimeout: 10))
        let holding = DispatchSemaphore(value: 0)
        let outcome = Mutex<PostgresError.Kind?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            do {
                try pool.withConnection { connection in
                    holding.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                    try connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
                    try connection.query("SELECT 1")
                }
            } catch let error as PostgresError {
                outcome.withLock { $0 = error.kind }
            } catch {}
            finished.signal()
        }.start()
        holding.wait()
        let pid = try pool.withConnection { connection in
            #expect(!connection.isBroken)
            return try connection.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
        }
        finished.wait()
        #expect(outcome.withLock { $0 } == .connectionLost)
        #expect(pid > 0)
        #expect(pool.stats == PoolStats(size: 1, open: 1, inUse: 0, waiting: 0))
    }

    @Test func aPoolStartsWithoutConnectingAndFailsCheckoutsWhileTheServerIsDown() throws {
        let port = try Shell.freePort()
        let pool = Pool(configuration: PostgresConfiguration(url: "postgresql://handoff@127.0.0.1:\(port)/handoff",
                                                             poolSize: 2))
        #expect(pool.stats == PoolStats(size: 2, open: 0, inUse: 0, waiting: 0))
        for _ in 0..<3 {
            let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
            #expect(error?.kind == .connectFailed)
        }
        #expect(pool.stats == PoolStats(size: 2, open: 0, inUse: 0, waiting: 0))
    }

    @Test func aClosedPoolRefusesCheckouts() throws {
        let pool = Pool(configuration: try PostgresFixture.configuration(poolSize: 2))
        try pool.withConnection { try $0.query("SELECT 1") }
        pool.close()
        #expect(pool.stats.open == 0)
        let error = #expect(throws: PostgresError.self) { try pool.withConnection { _ in } }
        #expect(error?.kind == .other)
    }
}
