import Foundation
@testable import Redis
import Testing
import TestSupport

/// `REDIS_SENTINELS` + `REDIS_MASTER_NAME`: the pool writes to whatever master a real Sentinel names, and follows a
/// failover within seconds (issue 19).
@Suite struct SentinelTests {
    struct NeverInSync: Error {}

    /// A master, its replica and one Sentinel watching them, each a private `redis-server` on a free port.
    final class SentinelGroup: @unchecked Sendable {
        let master: ScratchRedis
        let replicaPort: Int
        let sentinelPort: Int
        private let replica: ChildProcess
        private let sentinel: ChildProcess

        init() throws {
            master = try ScratchRedis()
            replicaPort = try Shell.freePort()
            let folder = try TestEnvironment.scratchFolder() + "/sentinel-\(master.port)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            replica = try ChildProcess(["redis-server", "--bind", "127.0.0.1", "--port", "\(replicaPort)", "--dir",
                                        folder, "--save", "", "--appendonly", "no",
                                        "--replicaof", "127.0.0.1", "\(master.port)"])
            sentinelPort = try Shell.freePort()
            let configuration = """
                bind 127.0.0.1
                port \(sentinelPort)
                dir \(folder)
                sentinel monitor handoff 127.0.0.1 \(master.port) 1
                sentinel down-after-milliseconds handoff 1000
                sentinel failover-timeout handoff 5000

                """
            let path = folder + "/sentinel.conf"
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            sentinel = try ChildProcess(["redis-server", path, "--sentinel"])
            for _ in 0..<100 where (try? cli(sentinelPort, "PING"))?.contains("PONG") != true {
                usleep(50_000)
            }
        }

        deinit {
            master.resume()
            replica.signal(SIGKILL)
            sentinel.signal(SIGKILL)
            kill(master.pid, SIGKILL)
        }

        @discardableResult
        func cli(_ port: Int, _ arguments: String...) throws -> String {
            try Shell.run(["redis-cli", "-h", "127.0.0.1", "-p", "\(port)"] + arguments)
        }

        /// Waits until the Sentinel sees the replica in sync, so that it can fail over to it.
        func waitForReplica() throws {
            for _ in 0..<150 {
                let replicas = (try? cli(sentinelPort, "SENTINEL", "replicas", "handoff")) ?? ""
                let link = (try? cli(replicaPort, "INFO", "replication")) ?? ""
                if replicas.contains("\(replicaPort)") && link.contains("master_link_status:up") { return }
                usleep(100_000)
            }
            throw NeverInSync()
        }
    }

    private func pool(_ group: SentinelGroup) throws -> RedisPool {
        // The URL's host and port are not used with Sentinel: nothing listens on port 1.
        RedisPool(configuration: try RedisConfiguration(
            url: "redis://127.0.0.1:1", poolSize: 2, connectTimeout: 0.5, commandTimeout: 0.5,
            sentinel: try RedisSentinelConfiguration(sentinels: "127.0.0.1:\(group.sentinelPort)",
                                                    masterName: "handoff", checkInterval: 0.2)))
    }

    private func port(of pool: RedisPool) throws -> Int? {
        let info = try pool.command(["INFO", "server"]).string ?? ""
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("tcp_port:") }
        return line.flatMap { Int($0.dropFirst("tcp_port:".count)) }
    }

    @Test(.timeLimit(.minutes(1)))
    func thePoolWritesToTheMasterTheSentinelNamesAndFollowsAFailoverWithinSeconds() throws {
        let group = try SentinelGroup()
        let pool = try pool(group)
        try pool.command(["SET", "before", "1"]).checked()
        #expect(try port(of: pool) == group.master.port)
        #expect(try group.master.cli("GET", "before").contains("1"))

        try group.waitForReplica()
        try group.cli(group.sentinelPort, "SENTINEL", "FAILOVER", "handoff")
        let started = Date()
        var followed: Double?
        // Sentinel's own failover (agreement, promotion) takes longer when the full suite loads both cores: wait up
        // to 60 s for it, and hold the pool to following within 30 s of the command.
        while Date().timeIntervalSince(started) < 60 {
            if (try? pool.command(["SET", "after", "2"]).checked()) != nil,
               (try? port(of: pool)) == group.replicaPort {
                followed = Date().timeIntervalSince(started)
                break
            }
            usleep(50_000)
        }
        let seconds = try #require(followed, "the pool never wrote to the promoted replica")
        #expect(seconds < 30, "took \(seconds) s")
        #expect(try group.cli(group.replicaPort, "GET", "after").contains("2"))
        // Every pooled connection now goes to the new master: none answers READONLY or reaches the old one.
        for _ in 0..<10 {
            try pool.command(["SET", "again", "3"]).checked()
            #expect(try port(of: pool) == group.replicaPort)
        }
    }

    @Test func withoutAnySentinelAnsweringACheckoutFailsWithConnectFailed() throws {
        let nobody = try Shell.freePort()
        let pool = RedisPool(configuration: try RedisConfiguration(
            url: "redis://127.0.0.1:1", connectTimeout: 0.2, commandTimeout: 0.2,
            sentinel: try RedisSentinelConfiguration(sentinels: "127.0.0.1:\(nobody)", masterName: "handoff")))
        let error = #expect(throws: RedisError.self) { try pool.command(["PING"]) }
        #expect(error?.kind == .connectFailed)
        #expect(pool.stats.open == 0)
    }

    @Test func aReadOnlyReplyBreaksTheConnectionInsteadOfComingBackAsAValue() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: scratch.url, poolSize: 1))
            try pool.command(["SET", "k", "1"]).checked()
            // Make it a replica of nothing reachable: it refuses writes with READONLY.
            try scratch.cli("REPLICAOF", "127.0.0.1", "1")
            let error = #expect(throws: RedisError.self) { try pool.command(["SET", "k", "2"]) }
            #expect(error?.kind == .connectionLost)
            #expect(pool.stats.open == 0)
            try scratch.cli("REPLICAOF", "NO", "ONE")
        }
    }
}
