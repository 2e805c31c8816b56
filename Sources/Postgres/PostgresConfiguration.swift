/// How to reach Postgres and how the pool behaves; read once at start-up and passed down.
public struct PostgresConfiguration: Sendable {
    /// The `DATABASE_URL`: a URI (`postgresql://user:pass@host:port/db?host=/socket/dir`) or a key=value
    /// conninfo string (`host=127.0.0.1 port=5432 user=handoff dbname=handoff`). TCP or unix socket.
    /// Several hosts (`postgresql://a:5432,b:5432/handoff?target_session_attrs=read-write`) are tried in order by
    /// libpq, and a new connection lands on the first that accepts writes.
    ///
    /// It may hold a password: it never appears in error messages.
    public var url: String
    /// How many connections the pool keeps open at most (at least 1).
    public var poolSize: Int
    /// Seconds a checkout waits for a free connection before failing with `.poolTimeout`.
    public var checkoutTimeout: Double
    /// Seconds libpq waits to establish a connection (libpq's `connect_timeout`; it treats 1 as 2).
    public var connectTimeout: Int
    /// `statement_timeout` in milliseconds, set on every connection; 0 disables it.
    public var statementTimeoutMilliseconds: Int
    /// Whether `queryPrepared` and prepared pipeline statements use named prepared statements (`DATABASE_PREPARED`).
    ///
    /// Off, they run as unnamed statements (one Parse/Bind/Execute each): what a pooler that does not carry named
    /// statements from one transaction to the next (pgbouncer below 1.21 in transaction mode) needs.
    public var preparedStatements: Bool

    /// Creates a configuration; values below their minimum are raised to it (pool size 1, timeouts 0).
    public init(
        url: String,
        poolSize: Int = 4,
        checkoutTimeout: Double = 5,
        connectTimeout: Int = 5,
        statementTimeoutMilliseconds: Int = 10_000,
        preparedStatements: Bool = true
    ) {
        self.url = url
        self.poolSize = max(1, poolSize)
        self.checkoutTimeout = max(0, checkoutTimeout)
        self.connectTimeout = max(0, connectTimeout)
        self.statementTimeoutMilliseconds = max(0, statementTimeoutMilliseconds)
        self.preparedStatements = preparedStatements
    }
}
