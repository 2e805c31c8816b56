import Foundation
import Redis
import Synchronization
import Testing
import TestSupport

@Suite struct RedisPoolTests {
    @Test func aPausedRedisYieldsATimeoutWithinTheBoundAndThePoolWorksAgainAfterResume() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: scratch.url, commandTimeout: 0.3))
            #expect(try pool.command(["PING"]) == .status("PONG"))

            scratch.pause()
            var error: RedisError?
            let elapsed = RedisFixture.seconds {
                error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
            }
            #expect(error?.kind == .timeout)
            #expect(elapsed >= 0.25)
            #expect(elapsed < 1.0)
            #expect(pool.stats == RedisPoolStats(size: 4, open: 0, inUse: 0, waiting: 0))

            scratch.resume()
            #expect(try pool.command(["PING"]) == .status("PONG"))
            #expect(pool.stats.open == 1)
        }
    }

    @Test func aConnectionOpenedWhileRedisIsPausedTimesOutInsteadOfHanging() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: scratch.url + "/1", commandTimeout: 0.3))
            scratch.pause()
            var error: RedisError?
            let elapsed = RedisFixture.seconds {
                error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
            }
            #expect(error?.kind == .timeout)
            #expect(elapsed < 1.0)
            #expect(pool.stats.open == 0)
            scratch.resume()
            #expect(try pool.command(["PING"]) == .status("PONG"))
        }
    }

    @Test func theNextCallAfterClientKillSucceedsOnANewConnection() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: scratch.url))
            let before = try pool.command(["CLIENT", "ID"])

            try scratch.cli("CLIENT", "KILL", "TYPE", "normal")

            #expect(try pool.command(["PING"]) == .status("PONG"))
            let after = try pool.command(["CLIENT", "ID"])
            #expect(after != before)
            #expect(pool.stats.open == 1)
        }
    }

    @Test func whileRedisIsDownCallsFailWithConnectFailedAndAfterARestartTheNextCallSucceeds() throws {
        try RedisFixture.withScratchRedis { (first: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: first.url))
            #expect(try pool.command(["PING"]) == .status("PONG"))

            _ = try? first.cli("SHUTDOWN", "NOSAVE")
            let down = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
            #expect(down?.kind == .connectFailed)
            #expect(pool.stats.open == 0)

            // ChildProcess kills and reaps the server when released at the end of this scope.
            let second = try ChildProcess(["redis-server", "--bind", "127.0.0.1", "--port", "\(first.port)",
                                           "--save", "", "--appendonly", "no"])
            defer { withExtendedLifetime(second) {} }
            var reply: RedisReply?
            for _ in 0..<100 where reply == nil {
                reply = try? pool.command(["PING"])
                if reply == nil { usleep(20_000) }
            }
            #expect(reply == .status("PONG"))
        }
    }

    @Test func fiftyThreadsShareAPoolOfFourWithoutError() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared(poolSize: 4, checkoutTimeout: 10))
        let counter = RedisFixture.key("counter")
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<50 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let own = RedisFixture.key("thread\(thread)")
                    for round in 0..<20 {
                        try pool.command(["INCR", counter]).checked()
                        try pool.command(["SET", own, "\(round)"]).checked()
                        let value = try pool.withConnection { try $0.command(["GET", own]) }
                        if value.string != "\(round)" {
                            failures.withLock { $0.append("thread \(thread) read \(value)") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == [])
        #expect(try pool.command(["GET", counter]).string == "1000")
        let stats = pool.stats
        #expect(stats.open <= 4)
        #expect(stats.inUse == 0)
        #expect(stats.waiting == 0)
    }

    @Test func checkoutFromAnExhaustedPoolTimesOutWithPoolTimeout() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared(poolSize: 1, checkoutTimeout: 0.2))
        try pool.withConnection { (held: RedisConnection) throws -> Void in
            #expect(try held.command(["PING"]) == .status("PONG"))
            #expect(pool.stats == RedisPoolStats(size: 1, open: 1, inUse: 1, waiting: 0))
            var error: RedisError?
            let elapsed = RedisFixture.seconds {
                error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
            }
            #expect(error?.kind == .poolTimeout)
            #expect(elapsed >= 0.15)
            #expect(elapsed < 1.0)
        }
        #expect(pool.stats == RedisPoolStats(size: 1, open: 1, inUse: 0, waiting: 0))
        #expect(try pool.command(["PING"]) == .status("PONG"))
    }

    @Test func aWaitingCallerGetsTheConnectionWhenItIsCheckedIn() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared(poolSize: 1, checkoutTimeout: 5))
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<RedisReply?>(nil)
        try pool.withConnection { _ in
            Thread {
                let reply = try? pool.command(["PING"])
                result.withLock { $0 = reply }
                done.signal()
            }.start()
            while pool.stats.waiting == 0 { usleep(1_000) }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(result.withLock { $0 } == .status("PONG"))
    }

    @Test func thePoolDoesNotConnectUntilFirstUse() throws {
        let port = try Shell.freePort()
        let pool = RedisPool(configuration: try RedisConfiguration(url: "redis://127.0.0.1:\(port)"))
        #expect(pool.stats == RedisPoolStats(size: 4, open: 0, inUse: 0, waiting: 0))
        let error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
        #expect(error?.kind == .connectFailed)
        #expect(pool.stats == RedisPoolStats(size: 4, open: 0, inUse: 0, waiting: 0))
    }

    @Test func aClosedPoolRefusesCheckouts() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared())
        #expect(try pool.command(["PING"]) == .status("PONG"))
        pool.close()
        #expect(pool.stats.open == 0)
        let error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
        #expect(error?.kind == .connectionLost)
    }
}
