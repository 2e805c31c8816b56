import Domain
import Postgres

/// A read model updated inside the append transaction, so commands can validate against it (DESIGN.md §3).
///
/// `apply` must only write the tables it declares in `tables`, addressed through `tables[...]`: replay rebuilds a
/// projection by applying the whole log into fresh tables named with a prefix (`ProjectionTables(prefix:)`)
/// and then swapping them in, so a projection that hard-codes its table names cannot be replayed.
/// `apply` must be deterministic in the event alone (no clock, no randomness) so that replay equals live.
public protocol InlineProjection: Sendable {
    /// The (unprefixed) names of the tables this projection owns.
    var tables: [String] { get }
    /// Folds one event into the tables. Runs in the append's transaction: throwing aborts the append.
    /// A write whose answer is not needed goes through `connection.queueWrite`: it travels with the command's next
    /// statement (every statement after it sees it), so projection writes cost no round trip of their own.
    func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws
}

/// Maps a projection's table names to the ones to write: the live tables, or a replay's fresh copies.
public struct ProjectionTables: Sendable, Equatable {
    /// Prepended to every table name (`""` for the live tables).
    public let prefix: String

    /// The live tables.
    public static let live = ProjectionTables(prefix: "")

    /// Tables named `prefix + name`; `prefix` may hold only lowercase ASCII letters, digits and `_`.
    public init(prefix: String) {
        precondition(prefix.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F },
                     "a projection table prefix must be lowercase ASCII letters, digits and _")
        self.prefix = prefix
    }

    /// The quoted SQL identifier of `table` under this mapping, ready to interpolate into SQL.
    public subscript(_ table: String) -> String {
        let name = prefix + table
        // Table names never hold a quote; the escape is kept for the one that would (`replacingOccurrences` is slow).
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
