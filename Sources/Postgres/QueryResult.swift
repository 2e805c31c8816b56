/// What a statement returned, copied out of libpq: column names, rows and the affected-row count.
public struct QueryResult: Sendable {
    /// Column names in result order (empty for statements that return no rows).
    public let columns: [String]
    /// The rows, every value in Postgres' text format.
    public let rows: [Row]
    /// Rows inserted, updated, deleted, selected, moved, fetched or copied; 0 when the command reports none.
    public let affectedRows: Int

    /// Creates a result.
    public init(columns: [String], rows: [Row], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first row, if any.
    public var first: Row? { rows.first }
}
