/// How the HTTP server listens and protects itself; built once at start-up.
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal (`"127.0.0.1"`, `"0.0.0.0"`, `"::"`).
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from `Server.port`).
    public var port: Int
    /// Threads in libmicrohttpd's pool; each runs an epoll loop and the responder. At least 1.
    public var threadCount: Int
    /// Seconds a connection may stay silent (idle keep-alive, or stalled mid-request) before it is closed.
    public var connectionTimeout: Int
    /// Most connections open at once, spread evenly over the pool threads.
    public var connectionLimit: Int
    /// Most connections open at once from one peer address; 0 means no limit.
    public var perIPConnectionLimit: Int
    /// Peers whose `X-Forwarded-For` is believed: addresses or CIDR ranges (`"10.0.0.0/8"`, `"fd00::/8"`).
    public var trustedProxies: [String]

    /// Makes a configuration; `Server.start()` reports values it cannot use.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = 4,
        connectionTimeout: Int = 30,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int = 0,
        trustedProxies: [String] = []
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionTimeout = connectionTimeout
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.trustedProxies = trustedProxies
    }
}
