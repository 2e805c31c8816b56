import Redis
import Testing

@Suite struct RedisCommandTests {
    let pool: RedisPool

    init() throws { pool = RedisPool(configuration: try RedisFixture.shared()) }

    @Test func aValueWithNulBytesAndAll256ByteValuesRoundTripsUnderAKeyWithSpacesAndCRLF() throws {
        let key = RedisFixture.key("binary key with spaces\r\nand CRLF \0 and NUL")
        let value: [UInt8] = [0, 0, 13, 10] + (0...255).map { UInt8($0) } + [0]
        let keyBytes = Array(key.utf8)

        #expect(try pool.command([Array("SET".utf8), keyBytes, value]) == .status("OK"))
        #expect(try pool.command([Array("GET".utf8), keyBytes]) == .bulk(value))
        #expect(try pool.command(["STRLEN", key]) == .integer(Int64(value.count)))
        #expect(try pool.command(["EXISTS", key + "x"]) == .integer(0))
    }

    @Test func anEmptyArgumentIsSentAsAnEmptyString() throws {
        let key = RedisFixture.key("empty")
        #expect(try pool.command(["SET", key, ""]) == .status("OK"))
        #expect(try pool.command(["GET", key]) == .bulk([]))
        #expect(try pool.command(["STRLEN", key]) == .integer(0))
    }

    @Test func incrAnswersAnInteger() throws {
        let key = RedisFixture.key("incr")
        #expect(try pool.command(["INCR", key]) == .integer(1))
        #expect(try pool.command(["INCRBY", key, "41"]) == .integer(42))
    }

    @Test func getOfAMissingKeyAnswersNull() throws {
        #expect(try pool.command(["GET", RedisFixture.key("missing")]) == .null)
    }

    @Test func lrangeAndMgetAnswerArraysWithNullForAMissingElement() throws {
        let list = RedisFixture.key("list")
        let present = RedisFixture.key("present")
        #expect(try pool.command(["RPUSH", list, "a", "b", "c"]) == .integer(3))
        #expect(try pool.command(["LRANGE", list, "0", "-1"]) == .array([.bulk([97]), .bulk([98]), .bulk([99])]))
        #expect(try pool.command(["LRANGE", RedisFixture.key("nolist"), "0", "-1"]) == .array([]))
        try pool.command(["SET", present, "here"])
        let reply = try pool.command(["MGET", present, RedisFixture.key("absent")])
        #expect(reply == .array([.bulk(Array("here".utf8)), .null]))
        #expect(reply.elements?.first?.string == "here")
    }

    @Test func setAnswersTheStatusOK() throws {
        let reply = try pool.command(["SET", RedisFixture.key("status"), "v"])
        #expect(reply == .status("OK"))
        #expect(reply.string == "OK")
    }

    @Test func aWrongTypeCommandAnswersAnErrorValueThatCheckedThrowsAsServer() throws {
        let list = RedisFixture.key("wrongtype")
        try pool.command(["RPUSH", list, "a"])
        let reply = try pool.command(["GET", list])
        guard case .error(let message) = reply else {
            Issue.record("expected an error reply, got \(reply)")
            return
        }
        #expect(message.hasPrefix("WRONGTYPE"))
        let error = #expect(throws: RedisError.self) { try reply.checked() }
        #expect(error?.kind == .server)
        // The connection stays usable after an error reply.
        #expect(pool.stats.open >= 1)
        #expect(try pool.command(["PING"]) == .status("PONG"))
    }

    @Test func nestedArraysAreCopiedWhole() throws {
        let reply = try pool.command(["EVAL", "return {1, {2, 'x'}, 'y'}", "0"])
        #expect(reply == .array([.integer(1), .array([.integer(2), .bulk([120])]), .bulk([121])]))
    }

    @Test func aNonUTF8BulkReplyKeepsItsBytesAndDecodesWithReplacement() throws {
        let key = RedisFixture.key("latin1")
        try pool.command([Array("SET".utf8), Array(key.utf8), [0xE9, 0x41]])
        let reply = try pool.command(["GET", key])
        #expect(reply.bytes == [0xE9, 0x41])
        #expect(reply.string == "\u{FFFD}A")
    }
}
