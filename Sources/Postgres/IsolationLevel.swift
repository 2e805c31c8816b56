/// The isolation level a `Pool.transaction` starts with.
public enum IsolationLevel: Sendable, Equatable {
    /// Postgres' default: each statement sees data committed before it began.
    case readCommitted
    /// One snapshot for the whole transaction; write conflicts fail with `.serializationFailure`.
    case repeatableRead
    /// As if transactions ran one after another; conflicts fail with `.serializationFailure`.
    case serializable

    var sql: String {
        switch self {
        case .readCommitted: "READ COMMITTED"
        case .repeatableRead: "REPEATABLE READ"
        case .serializable: "SERIALIZABLE"
        }
    }
}
