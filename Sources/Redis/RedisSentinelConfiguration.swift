/// The Sentinels that name the Redis master, and the name they know it by.
///
/// The pool asks them which server is the master before it opens a connection, at most every `checkInterval`
/// seconds while connections are in use, and at once when a connection fails; when the answer changes (Sentinel's
/// `+switch-master`), every connection to the old master is dropped.
public struct RedisSentinelConfiguration: Sendable, Equatable {
    /// The Sentinels, asked in this order until one answers.
    public var addresses: [(host: String, port: Int)] {
        endpoints.map { ($0.host, $0.port) }
    }
    /// The master's name in the Sentinels' configuration (`sentinel monitor NAME …`).
    public var masterName: String
    /// Seconds between two questions to the Sentinels while the pool is used.
    public var checkInterval: Double

    struct Endpoint: Sendable, Equatable {
        var host: String
        var port: Int
    }

    let endpoints: [Endpoint]

    /// Parses `host:port,host:port,…` (`[IPv6]:port` for IPv6 literals).
    ///
    /// - Throws: `RedisError(.invalidURL)` naming what is wrong when the list or the name is malformed.
    public init(sentinels: String, masterName: String, checkInterval: Double = 0.5) throws {
        var endpoints: [Endpoint] = []
        for item in sentinels.split(separator: ",", omittingEmptySubsequences: false) {
            let text = item.trimmingWhitespace
            guard case .tcp(let host, let port) = try? RedisEndpoint(url: "redis://" + text).address,
                  !text.contains("/"), !text.contains("@"), text.hasSuffix(":\(port)") else {
                throw RedisError(.invalidURL, "a Sentinel must be host:port (got \"\(text)\")")
            }
            endpoints.append(Endpoint(host: host, port: port))
        }
        guard !endpoints.isEmpty else { throw RedisError(.invalidURL, "the Sentinel list is empty") }
        guard !masterName.isEmpty, masterName.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw RedisError(.invalidURL, "the master name must be a non-empty word")
        }
        self.endpoints = endpoints
        self.masterName = masterName
        self.checkInterval = max(0.05, checkInterval)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.endpoints == rhs.endpoints && lhs.masterName == rhs.masterName && lhs.checkInterval == rhs.checkInterval
    }
}

private extension Substring {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
