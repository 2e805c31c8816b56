import Redis
import Testing
import TestSupport

@Suite struct RedisScriptTests {
    static let incrementBy = RedisScript(source: "return redis.call('INCRBY', KEYS[1], ARGV[1])")

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 1_000_000), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
    ])
    func theScriptNameIsTheSHA1OfItsSource(source: String, digest: String) {
        #expect(RedisScript(source: source).sha1 == digest)
    }

    @Test func theSwiftSHA1MatchesTheOneRedisComputes() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared())
        let script = RedisScript(source: "return 'é \(RedisFixture.key("sha"))'")
        #expect(try pool.command(["SCRIPT", "LOAD", script.source]).string == script.sha1)
    }

    @Test func evaluateLoadsAnUnknownScriptAndRunsIt() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared())
        let key = RedisFixture.key("eval")
        #expect(try pool.evaluate(Self.incrementBy, keys: [key], arguments: ["5"]) == .integer(5))
        #expect(try pool.evaluate(Self.incrementBy, keys: [key], arguments: ["2"]) == .integer(7))
    }

    @Test func evalshaSurvivesScriptFlush() throws {
        try RedisFixture.withScratchRedis { (scratch: ScratchRedis) throws -> Void in
            let pool = RedisPool(configuration: try RedisConfiguration(url: scratch.url))
            let key = RedisFixture.key("flush")
            #expect(try pool.evaluate(Self.incrementBy, keys: [key], arguments: ["5"]) == .integer(5))
            #expect(try pool.command(["SCRIPT", "EXISTS", Self.incrementBy.sha1]) == .array([.integer(1)]))

            try scratch.cli("SCRIPT", "FLUSH")
            #expect(try pool.command(["SCRIPT", "EXISTS", Self.incrementBy.sha1]) == .array([.integer(0)]))

            #expect(try pool.evaluate(Self.incrementBy, keys: [key], arguments: ["5"]) == .integer(10))
        }
    }

    @Test func aScriptThatDoesNotCompileAnswersAnErrorReply() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared())
        let broken = RedisScript(source: "return +")
        let reply = try pool.evaluate(broken, keys: [], arguments: [])
        guard case .error(let message) = reply else {
            Issue.record("expected an error reply, got \(reply)")
            return
        }
        #expect(message.contains("Error compiling script"))
    }

    @Test func aScriptErrorAtRunTimeAnswersAnErrorReply() throws {
        let pool = RedisPool(configuration: try RedisFixture.shared())
        let failing = RedisScript(source: "return redis.error_reply('REFUSED ' .. ARGV[1])")
        #expect(try pool.evaluate(failing, keys: [], arguments: ["nope"]) == .error("REFUSED nope"))
    }
}
