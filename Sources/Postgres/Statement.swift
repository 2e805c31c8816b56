/// One statement with its parameters, for `Connection.pipeline` and `Pool.transaction(opening:)`.
public struct Statement: Sendable, Equatable {
    /// The SQL text, one statement, with `$1`, `$2` … for the parameters.
    public var sql: String
    /// The parameters, as `Connection.query` takes them.
    public var parameters: [PostgresValue]
    /// Whether to run it as a prepared statement of the connection (prepared on first use, like `queryPrepared`).
    public var prepared: Bool

    /// A statement; `prepared` for hot, fixed SQL.
    public init(_ sql: String, _ parameters: [PostgresValue] = [], prepared: Bool = false) {
        self.sql = sql
        self.parameters = parameters
        self.prepared = prepared
    }
}
