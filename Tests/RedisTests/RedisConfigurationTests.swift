@testable import Redis
import Testing

@Suite struct RedisConfigurationTests {
    @Test(arguments: [
        "",
        "127.0.0.1:6379",
        "http://127.0.0.1:6379",
        "rediss://127.0.0.1:6379",
        "redis://",
        "redis://:6379",
        "redis://127.0.0.1:port",
        "redis://127.0.0.1:0",
        "redis://127.0.0.1:70000",
        "redis://127.0.0.1:6379/db",
        "redis://127.0.0.1:6379/1/2",
        "redis://127.0.0.1:6379?timeout=1",
        "redis://secret@127.0.0.1",
        "redis://:bad%zzescape@127.0.0.1",
        "redis://[::1:6379",
        "unix://relative.sock",
        "unix:///tmp/redis.sock?database=1",
    ])
    func aMalformedURLIsRefusedWithInvalidURL(url: String) {
        let error = #expect(throws: RedisError.self) { try RedisConfiguration(url: url) }
        #expect(error?.kind == .invalidURL)
    }

    @Test func theInvalidURLMessageDoesNotRevealThePassword() {
        let error = #expect(throws: RedisError.self) {
            try RedisConfiguration(url: "redis://:hunter2@127.0.0.1:notaport")
        }
        #expect(error?.message.contains("hunter2") == false)
    }

    @Test func defaultsAreFourConnectionsAndOneOneTwoSeconds() throws {
        let configuration = try RedisConfiguration(url: "redis://localhost")
        #expect(configuration.poolSize == 4)
        #expect(configuration.connectTimeout == 1)
        #expect(configuration.commandTimeout == 1)
        #expect(configuration.checkoutTimeout == 2)
    }

    @Test func aFullURLIsParsedIntoAddressCredentialsAndDatabase() throws {
        #expect(try RedisEndpoint(url: "redis://alice:p%40ss@[::1]:6380/3") == RedisEndpoint(
            address: .tcp(host: "::1", port: 6380), username: "alice", password: "p@ss", database: 3))
        #expect(try RedisEndpoint(url: "redis://:secret@cache.internal") == RedisEndpoint(
            address: .tcp(host: "cache.internal", port: 6379), username: nil, password: "secret", database: 0))
        #expect(try RedisEndpoint(url: "REDIS://127.0.0.1:7000/") == RedisEndpoint(
            address: .tcp(host: "127.0.0.1", port: 7000), username: nil, password: nil, database: 0))
        #expect(try RedisEndpoint(url: "unix:///run/redis/redis.sock?db=4") == RedisEndpoint(
            address: .unix(path: "/run/redis/redis.sock"), username: nil, password: nil, database: 4))
    }
}
