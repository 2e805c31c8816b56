/// Where and how to reach Redis; validated once at start-up, then passed down.
///
/// `url` is `redis://[[user]:password@]host[:port][/db]` (port 6379 and db 0 by default; percent-encode
/// special characters in the password; IPv6 hosts in brackets) or `unix:///path/to/redis.sock[?db=N]`.
/// A password makes every new connection send `AUTH`, a non-zero db sends `SELECT`.
/// Times are in seconds; values below one millisecond are raised to one millisecond.
public struct RedisConfiguration: Sendable {
    /// The server URL (`REDIS_URL`).
    public var url: String
    /// The most connections a `RedisPool` opens; at least 1.
    public var poolSize: Int
    /// How long opening a connection may take, in seconds (the TCP/unix connect; AUTH/SELECT use `commandTimeout`).
    public var connectTimeout: Double
    /// How long one command may wait for its reply, in seconds; past it the command throws `.timeout`.
    public var commandTimeout: Double
    /// How long `RedisPool` checkout waits for a free connection, in seconds; past it, `.poolTimeout`.
    public var checkoutTimeout: Double
    /// Where to find the master when it is not fixed (`REDIS_SENTINELS` + `REDIS_MASTER_NAME`); nil uses `url`'s
    /// address. With Sentinel, `url` still gives the password and database; its host and port are not used.
    public var sentinel: RedisSentinelConfiguration?

    /// Validates `url` and stores the settings.
    ///
    /// - Throws: `RedisError(.invalidURL)` when `url` is malformed.
    public init(
        url: String, poolSize: Int = 4, connectTimeout: Double = 1, commandTimeout: Double = 1,
        checkoutTimeout: Double = 2, sentinel: RedisSentinelConfiguration? = nil
    ) throws {
        _ = try RedisEndpoint(url: url)
        self.url = url
        self.poolSize = poolSize
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.checkoutTimeout = checkoutTimeout
        self.sentinel = sentinel
    }
}
