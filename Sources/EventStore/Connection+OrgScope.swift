import Postgres

extension Connection {
    /// Runs one prepared statement under `scope`: the scope's statement and this one in one round trip and one
    /// implicit transaction (`pipeline`), so the setting holds for this statement only. For reads on a pooled
    /// connection outside a transaction; inside a transaction, scope the transaction instead.
    @discardableResult
    public func queryPrepared(_ sql: String, _ parameters: [PostgresValue] = [], in scope: OrgScope) throws
        -> QueryResult
    {
        try pipeline([scope.statement, Statement(sql, parameters, prepared: true)])[1]
    }
}
