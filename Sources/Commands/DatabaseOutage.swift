import Domain
import Postgres

/// Tells a database outage apart from a bug: the errors that mean Postgres cannot be reached right now (down,
/// restarting, still recovering, or every pooled connection busy) become one 503 refusal, so every route answers
/// 503 with `Retry-After` while the database is away instead of a 500.
public enum DatabaseOutage {
    /// The refusal for `error` when it is an outage; nil for anything else (a bug, a constraint, a timeout).
    ///
    /// Outages: a connection that could not be opened (`connectFailed`, including SQLSTATE 57P03 "the database
    /// system is starting up"), a connection lost mid-statement (`connectionLost`: class 08, 57P01–57P03), and a pool
    /// with no free connection within its checkout timeout (`poolTimeout`), and a connection left on a server that
    /// became read-only by a failover (`readOnlyServer`; the pool replaces it, a retry reaches the new primary).
    ///
    /// A deadlock or serialization failure that outlived the command's retries is answered the same way: the command
    /// kept nothing, and the same request (with its idempotency key) succeeds once the conflicting writes are done.
    public static func refusal(for error: any Error) -> Refusal? {
        guard let error = error as? PostgresError else { return nil }
        if [.connectFailed, .connectionLost, .readOnlyServer, .poolTimeout].contains(error.kind) {
            return .unavailable("the database is not answering; retry later")
        }
        if [.deadlockDetected, .serializationFailure].contains(error.kind) {
            return .unavailable("the database is busy with conflicting writes; retry later")
        }
        return nil
    }
}
