import Foundation
import Redis
import Testing
import TestSupport

@Suite struct RedisConnectionTests {
    @Test func connectingToAClosedPortFailsPromptlyWithConnectFailed() throws {
        let port = try Shell.freePort()
        var error: RedisError?
        let elapsed = try RedisFixture.seconds {
            let configuration = try RedisConfiguration(url: "redis://127.0.0.1:\(port)")
            error = #expect(throws: RedisError.self) { try RedisConnection(configuration: configuration) }
        }
        #expect(error?.kind == .connectFailed)
        #expect(elapsed < 0.5)
    }

    @Test func aPasswordInTheURLIsSentWithAuth() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            try scratch.cli("CONFIG", "SET", "requirepass", "s3cr3t/pass")
            let url = "redis://:s3cr3t%2Fpass@127.0.0.1:\(scratch.port)"
            let connection = try RedisConnection(configuration: try RedisConfiguration(url: url))
            #expect(try connection.command(["PING"]) == .status("PONG"))

            let unauthenticated = try RedisConnection(configuration: try RedisConfiguration(url: scratch.url))
            #expect(try unauthenticated.command(["PING"]).string == nil)

            let wrong = "redis://:wrong@127.0.0.1:\(scratch.port)"
            let error = #expect(throws: RedisError.self) {
                try RedisConnection(configuration: try RedisConfiguration(url: wrong))
            }
            #expect(error?.kind == .connectFailed)
            #expect(error?.message.contains("wrong") == false)
        }
    }

    @Test func aUserAndPasswordInTheURLAuthenticateAsThatACLUser() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            try scratch.cli("ACL", "SETUSER", "alice", "on", ">wonder land", "~*", "&*", "+@all")
            let url = "redis://alice:wonder%20land@127.0.0.1:\(scratch.port)"
            let connection = try RedisConnection(configuration: try RedisConfiguration(url: url))
            #expect(try connection.command(["ACL", "WHOAMI"]).string == "alice")
        }
    }

    @Test func theDatabaseInTheURLIsSelected() throws {
        let base = try TestEnvironment.redisURL()
        let key = RedisFixture.key("db")
        let inFive = try RedisConnection(configuration: try RedisConfiguration(url: base + "/5"))
        let inZero = try RedisConnection(configuration: try RedisConfiguration(url: base))
        try inFive.command(["SET", key, "five"]).checked()
        #expect(try inFive.command(["GET", key]).string == "five")
        #expect(try inZero.command(["GET", key]) == .null)
        try inFive.command(["DEL", key])
    }

    @Test func aCommandOnAConnectionTheServerKilledThrowsConnectionLostAndBreaksIt() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let connection = try RedisConnection(configuration: try RedisConfiguration(url: scratch.url))
            #expect(try connection.command(["PING"]) == .status("PONG"))
            try scratch.cli("CLIENT", "KILL", "TYPE", "normal")

            // A large write into a reset socket raises SIGPIPE unless the client blocks it.
            let large = [UInt8](repeating: 0x61, count: 16 << 20)
            let error = #expect(throws: RedisError.self) {
                try connection.command([Array("SET".utf8), Array("big".utf8), large])
            }
            #expect(error?.kind == .connectionLost)
            #expect(connection.isBroken)
            let again = #expect(throws: RedisError.self) { try connection.command(["PING"]) }
            #expect(again?.kind == .connectionLost)
        }
    }

    @Test func aUnixSocketURLConnects() throws {
        let folder = try TestEnvironment.scratchFolder() + "/redis-unix-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let socket = folder + "/redis.sock"
        // ChildProcess kills and reaps the server when released at the end of this test.
        let server = try ChildProcess(["redis-server", "--port", "0", "--unixsocket", socket, "--dir", folder,
                                       "--save", "", "--appendonly", "no"])
        defer { withExtendedLifetime(server) {} }
        let configuration = try RedisConfiguration(url: "unix://\(socket)?db=2")
        var connection: RedisConnection?
        for _ in 0..<100 where connection == nil {
            connection = try? RedisConnection(configuration: configuration)
            if connection == nil { usleep(20_000) }
        }
        let connected = try #require(connection)
        #expect(try connected.command(["PING"]) == .status("PONG"))
        #expect(try connected.command(["CLIENT", "INFO"]).string?.contains("db=2") == true)
    }
}
