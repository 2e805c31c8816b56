import Foundation
import Postgres

/// The event log on Postgres (DESIGN.md §3, docs/event-store.md): append with optimistic concurrency and a
/// per-org gapless, hash-chained sequence; inline projections updated in the same transaction.
///
/// Blocking: every call holds a pooled connection on the calling thread until Postgres answers.
public final class EventStore: Sendable {
    /// Where connections come from; use the application role (INSERT and SELECT on `events`).
    public let pool: Pool
    /// Run, in order, for every appended event inside the append transaction.
    public let projections: [any InlineProjection]

    /// Creates a store over `pool` with the inline projections it keeps up to date.
    public init(pool: Pool, projections: [any InlineProjection] = []) {
        self.pool = pool
        self.projections = projections
    }

    /// Appends `events` to `stream` of `org` in a transaction of its own; returns them as recorded.
    ///
    /// Throws `EventStoreError.wrongExpectedVersion` when the stream moved on, `.duplicateEvent` when an event id is
    /// already recorded. Use `transact` to read state, decide and append in one transaction with retries.
    @discardableResult
    public func append(
        org: UUID, stream: String, expectedVersion: ExpectedVersion, events: [NewEvent], metadata: EventMetadata
    ) throws -> [RecordedEvent] {
        try pool.transaction { connection in
            try EventTransaction(connection: connection, projections: projections)
                .append(org: org, stream: stream, expectedVersion: expectedVersion, events: events, metadata: metadata)
        }
    }

    /// Runs a command: `body` reads what it needs (projections, streams), decides, and appends through the
    /// transaction it is given; everything commits together.
    ///
    /// When `body` (or the commit) fails with `wrongExpectedVersion`, a serialization failure or a deadlock, the
    /// transaction is rolled back and `body` runs again with fresh reads, up to `maxAttempts` times in all; then the
    /// last error is thrown. Other errors are thrown at once. `body` must not have effects outside the transaction.
    public func transact<T>(maxAttempts: Int = 3, _ body: (EventTransaction) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try pool.transaction { connection in
                    try body(EventTransaction(connection: connection, projections: projections))
                }
            } catch let error where attempt < maxAttempts && Self.isRetryable(error) {
                attempt += 1
            }
        }
    }

    /// Whether re-running the decider can succeed: the stream moved, or Postgres aborted a conflicting transaction.
    public static func isRetryable(_ error: any Error) -> Bool {
        if case .wrongExpectedVersion = error as? EventStoreError { return true }
        if let error = error as? PostgresError {
            return error.kind == .serializationFailure || error.kind == .deadlockDetected
        }
        return false
    }

    // MARK: - Reads (each on a pooled connection, outside any transaction)

    /// The events of one stream from `fromVersion` on, in stream order, at most `limit`.
    public func readStream(
        org: UUID, stream: String, fromVersion: Int = 1, limit: Int = 1000
    ) throws -> [RecordedEvent] {
        try pool.withConnection { try EventReader.readStream(org: org, stream: stream, fromVersion: fromVersion,
                                                            limit: limit, on: $0) }
    }

    /// An org's history from `fromSeq` on, by `org_seq` (gapless, commit order), at most `limit`.
    public func readHistory(org: UUID, fromSeq: Int = 1, limit: Int = 1000) throws -> [RecordedEvent] {
        try pool.withConnection { try EventReader.readHistory(org: org, fromSeq: fromSeq, limit: limit, on: $0) }
    }

    /// Up to `limit` events of all orgs after `checkpoint`, in `(tx_id, global_pos)` order, behind the xid horizon.
    public func readGlobal(after checkpoint: GlobalCheckpoint, limit: Int = 1000) throws -> [RecordedEvent] {
        try pool.withConnection { try EventReader.readGlobal(after: checkpoint, limit: limit, on: $0) }
    }
}
