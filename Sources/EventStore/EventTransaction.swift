import Domain
import Foundation
import Postgres

/// One open transaction in which a command reads state and appends events; handed out by `EventLog.transact`.
///
/// Use it from the thread that received it, only while the `transact` body runs. Several appends to streams of
/// one org in one transaction are fine; appends to several orgs in one transaction lock several counter rows and can
/// deadlock (Postgres then aborts one, which `transact` retries) — prefer one org per command.
public struct EventTransaction {
    /// The transaction's connection, for the decider's own reads and for inline writes.
    public let connection: Connection
    let projections: [any InlineProjection]

    /// Wraps a connection that is inside `BEGIN` (read committed); `projections` run for every appended event.
    public init(connection: Connection, projections: [any InlineProjection] = []) {
        self.connection = connection
        self.projections = projections
    }

    /// Moves the transaction to `scope` (row-level security) from here until it ends, e.g. once a worker has read
    /// which org its job is for. One round trip.
    public func enter(_ scope: OrgScope) throws {
        try connection.pipeline([scope.statement])
    }

    /// The stream's current version (0 when it has no events).
    public func streamVersion(org: UUID, stream: String) throws -> Int {
        try EventReader.streamVersion(org: org, stream: stream, on: connection)
    }

    /// The events of one stream, in order.
    public func readStream(
        org: UUID, stream: String, fromVersion: Int = 1, limit: Int = 1000
    ) throws -> [RecordedEvent] {
        try EventReader.readStream(org: org, stream: stream, fromVersion: fromVersion, limit: limit, on: connection)
    }

    /// Appends `events` to `stream` in this transaction and runs the inline projections on them.
    ///
    /// One statement (`AppendStatement`, the `event_append` function of migrations 0009 and 0012), after the
    /// decider's reads:
    /// 1. locks the org's counter row (creating it at `last_seq` 0 for a new org);
    /// 2. checks the stream is at the expected version (for `.any` reads it), under the lock, so the check is final;
    /// 3. inserts the events with `org_seq` last+1…, `stream_version` version+1…, the database clock read after
    ///    the lock as `recorded_at`, hashes chained from the counter's `last_hash`, and moves the counter row;
    /// then the projections run. A one-event command is BEGIN, (the decider's reads,) this statement, COMMIT.
    /// Nothing is visible until the transaction commits; a rollback also undoes the counter, so no hole is left.
    /// Throws `.wrongExpectedVersion`, `.duplicateEvent`, `.nothingToAppend`. After a thrown Postgres error the
    /// transaction is aborted: roll it back.
    @discardableResult
    public func append(
        org: UUID, stream: String, expectedVersion: ExpectedVersion, events: [NewEvent], metadata: EventMetadata
    ) throws -> [RecordedEvent] {
        let recorded = try AppendStatement.run(
            [AppendCommand(org: org, stream: stream, expectedVersion: expectedVersion, events: events,
                           metadata: metadata)],
            on: connection)[0].get()
        try project(recorded)
        return recorded
    }

    /// Runs the inline projections on `recorded`, in order, in this transaction. The writes they queue
    /// (`Connection.queueWrite`) go with the command's next statement — a read sees them, in order — and at the
    /// latest when the command ends (`CommandBatch`, `Pool.transaction`): a failed one fails the command, as if the
    /// append had thrown it.
    func project(_ recorded: [RecordedEvent]) throws {
        for event in recorded {
            for projection in projections {
                try projection.apply(event, on: connection, tables: .live)
            }
        }
    }
}
