/// How the HTTP server listens and protects itself; built once at start-up.
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal (`"127.0.0.1"`, `"0.0.0.0"`, `"::1"`). `"::"` listens on every
    /// IPv6 address and, where the system allows dual-stack sockets, on every IPv4 address too.
    public var host: String
    /// The TCP port; 0 picks a free one (read it back from `Server.port`).
    public var port: Int
    /// Threads in libmicrohttpd's pool; each runs an epoll loop and the responder. At least 1.
    public var threadCount: Int
    /// Seconds a connection may stay silent (idle keep-alive, or stalled mid-request) before it is closed.
    public var connectionTimeout: Int
    /// Most connections open at once, spread evenly over the pool threads.
    public var connectionLimit: Int
    /// Most connections open at once from one client (an IPv4 address, or an IPv6 prefix of `clientGrouping`);
    /// 0 means no limit. Peers in `trustedProxies` are not capped (every client behind them shares their address).
    /// A connection over the cap is closed at once, unanswered.
    public var perIPConnectionLimit: Int
    /// Seconds a request's headers may take to arrive, counted from the connection's start (first request) or from
    /// its first byte after the previous response; a connection past it is closed unanswered, however steadily it
    /// trickles. 0 means no deadline (only `connectionTimeout`, which a byte now and then resets).
    public var headerTimeout: Double
    /// Which client addresses share one `perIPConnectionLimit` (IPv6 clients by prefix).
    public var clientGrouping: ClientAddressGrouping
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
        headerTimeout: Double = 10,
        clientGrouping: ClientAddressGrouping = ClientAddressGrouping(),
        trustedProxies: [String] = []
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.connectionTimeout = connectionTimeout
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.headerTimeout = headerTimeout
        self.clientGrouping = clientGrouping
        self.trustedProxies = trustedProxies
    }
}
