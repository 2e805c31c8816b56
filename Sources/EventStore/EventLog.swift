import Domain
import Foundation
import Postgres
import Telemetry

/// The event log on Postgres (DESIGN.md §3, docs/event-store.md): append with optimistic concurrency and a
/// per-org gapless, hash-chained sequence; inline projections updated in the same transaction.
///
/// Blocking: every call holds a pooled connection on the calling thread until Postgres answers.
public final class EventLog: Sendable {
    /// Where connections come from; use the application role (INSERT and SELECT on `events`, row-level security:
    /// every call sets its org scope, `OrgScope`).
    public let pool: Pool
    /// Run, in order, for every appended event inside the append transaction.
    public let projections: [any InlineProjection]

    /// Batches concurrent `append`s per lane of orgs.
    private let groupCommit: GroupCommit<AppendCommand, [RecordedEvent]>
    /// The lanes of `append`'s batches.
    private let appendLanes: OrgLanes
    /// Batches concurrent `transact`s per org (one lane per org: a transaction locks one counter row).
    private let commandCommit: GroupCommit<BatchedCommand, Void>

    /// Creates a store over `pool` with the inline projections it keeps up to date.
    ///
    /// Group commit of `append`: `maxBatch` bounds how many concurrent calls share a transaction (1 turns it off);
    /// `batchLanes` 0 batches calls for the same org only, n > 0 lets the orgs of each of n lanes share one (2 gave
    /// 13–23 % more events/s than 4 across 50 orgs, in every round: fewer, larger batches share Postgres's
    /// per-statement work; docs/event-store.md "Benchmark").
    /// Group commit of `transact`: `commandBatch` bounds how many concurrent commands of one org share a transaction
    /// (1 turns it off; each command is a savepoint, and a transaction keeps at most 64 subtransaction ids in
    /// shared memory before every snapshot gets slower, so keep it well under 64).
    public init(pool: Pool, projections: [any InlineProjection] = [], maxBatch: Int = 64, batchLanes: Int = 2,
                commandBatch: Int = 16) {
        self.pool = pool
        self.projections = projections
        self.groupCommit = GroupCommit(maxBatch: maxBatch)
        self.appendLanes = OrgLanes(batchLanes)
        self.commandCommit = GroupCommit(maxBatch: commandBatch)
    }

    /// Appends `events` to `stream` of `org` in a transaction of its own; returns them as recorded.
    ///
    /// Group commit: concurrent calls for the same org in this process share one transaction (one statement and
    /// one commit); each call still gets its own result, and a wrong expected version fails only its own call.
    /// Without inline projections a batch is a single autocommitted statement (one round trip).
    /// Throws `EventStoreError.wrongExpectedVersion` when the stream moved on, `.duplicateEvent` when an event id is
    /// already recorded. Use `transact` to read state, decide and append in one transaction with retries.
    @discardableResult
    public func append(
        org: UUID, stream: String, expectedVersion: ExpectedVersion, events: [NewEvent], metadata: EventMetadata
    ) throws -> [RecordedEvent] {
        let command = try AppendCommand(org: org, stream: stream, expectedVersion: expectedVersion, events: events,
                                        metadata: metadata)
        return try groupCommit.run(command, lane: appendLanes.lane(of: org)) { batch in
            do {
                return try run(batch).map { $0.mapError { $0 as any Error } }
            } catch where batch.count > 1 {
                // Something failed the whole batch (a duplicate event id, a projection's refusal, a lost
                // connection): run each command alone so that each caller gets its own outcome.
                return batch.map { command in
                    Result { try run([command])[0].get() }
                }
            } catch {
                return [.failure(error)]
            }
        }
    }

    /// One batch of commands as one statement under the scope of the batch's orgs: autocommitted without
    /// projections (the scope's statement pipelined before it, one round trip), else in BEGIN … COMMIT with the
    /// projections of the appended events. Throws when the whole batch failed (nothing kept).
    private func run(_ batch: [AppendCommand]) throws -> [Result<[RecordedEvent], EventStoreError>] {
        var orgs: [UUID] = []
        for command in batch where !orgs.contains(command.org) { orgs.append(command.org) }
        let scope = OrgScope.orgs(orgs)
        if projections.isEmpty {
            return try pool.withConnection { try AppendStatement.run(batch, on: $0, in: scope) }
        }
        return try pool.transaction(opening: scope.statement) { connection in
            let results = try AppendStatement.run(batch, on: connection)
            let transaction = EventTransaction(connection: connection, projections: projections)
            for case .success(let recorded) in results { try transaction.project(recorded) }
            return results
        }
    }

    /// Runs a command: `body` reads what it needs (projections, streams), decides, and appends through the
    /// transaction it is given; everything commits together.
    ///
    /// The one retry policy of commands: when `body` (or the commit) fails because a racer got there first —
    /// `wrongExpectedVersion`, a unique key of a projection (a concurrent first recording of the same thing), a
    /// serialization failure or a deadlock — the transaction is rolled back and `body` runs again with fresh reads,
    /// which then see the racer's outcome; up to `maxAttempts` times in all, then the last error is thrown. Other
    /// errors are thrown at once. `body` must not have effects outside the transaction.
    ///
    /// `scope` says whose rows the transaction may touch under row-level security; it is set in the same round trip
    /// as BEGIN. Name the command's org (`.org`), or let a lookup find it (`.orgOf`) when the request carries only a
    /// credential.
    public func transact<T>(in scope: OrgScope, maxAttempts: Int = 5, _ body: (EventTransaction) throws -> T)
        throws -> T
    {
        guard commandCommit.maxBatch > 1, let org = try commandLane(of: scope) else {
            return try transactAlone(in: scope, maxAttempts: maxAttempts, body)
        }
        var output: T?
        try withoutActuallyEscaping(body) { body in
            let command = BatchedCommand(scope: scope.found(org), maxAttempts: maxAttempts) { output = try body($0) }
            defer { command.release() }
            try commandCommit.run(command, lane: org.lowercasedText) { batch in runCommands(batch) }
        }
        guard let output else { throw EventStoreError.malformedRow("a batched command finished without a result") }
        return output
    }

    /// One command in a transaction of its own, with the retry policy of `transact`.
    private func transactAlone<T>(in scope: OrgScope, maxAttempts: Int, _ body: (EventTransaction) throws -> T)
        throws -> T
    {
        var attempt = 1
        while true {
            do {
                let asked = StageTimings.now()
                return try pool.transaction(opening: scope.statement) { connection in
                    StageTimings.shared.record(.transactionOpen, since: asked)
                    return try body(EventTransaction(connection: connection, projections: projections))
                }
            } catch let error where attempt < maxAttempts && Self.isRetryable(error) {
                attempt += 1
            }
        }
    }

    /// The group-commit lane of a command: its org, found by the scope's lookup when the scope names none (one
    /// autocommitted read); nil (run alone) for a scope of several orgs or a lookup that finds none.
    private func commandLane(of scope: OrgScope) throws -> UUID? {
        switch scope.target {
        case .orgs(let orgs):
            return orgs.count == 1 ? orgs[0] : nil
        case .lookup(let lookup, let argument):
            let asked = StageTimings.now()
            defer { StageTimings.shared.record(.laneLookup, since: asked) }
            let rows = try pool.withConnection {
                try $0.queryPrepared("SELECT \(lookup.function)($1)::text AS org", [argument]).rows
            }
            return rows.first?["org"].flatMap(UUID.init(canonicalText:))
        }
    }

    /// Runs one batch of commands: alone when it is one, else in one transaction (`CommandBatch`). When the batch's
    /// transaction fails as a whole (its COMMIT or one of its own statements), nothing of it was kept: each command
    /// runs again alone, unless the connection was lost (then whether COMMIT happened is unknown, and every command
    /// gets the error, as it would alone). A command that met a deadlock in the batch runs alone after its commit.
    private func runCommands(_ batch: [BatchedCommand]) -> [Result<Void, any Error>] {
        let alone = { (command: BatchedCommand) in
            Result { try self.transactAlone(in: command.scope, maxAttempts: command.maxAttempts, command.run) }
        }
        guard batch.count > 1 else { return batch.map(alone) }
        do {
            let asked = StageTimings.now()
            let results = try pool.transaction { connection in
                StageTimings.shared.record(.transactionOpen, since: asked)
                return try CommandBatch(connection: connection, projections: projections).run(batch)
            }
            // A command that lost a deadlock to a lock its own batch held runs again now that the batch committed.
            return zip(batch, results).map { command, result in
                if case .failure(let error) = result, error is CommandBatch.Deadlocked { return alone(command) }
                return result
            }
        } catch let error as PostgresError where [.connectionLost, .connectFailed, .poolTimeout].contains(error.kind) {
            return batch.map { _ in .failure(error) }
        } catch {
            return batch.map(alone)
        }
    }

    /// Whether re-running the decider can succeed: the stream moved, a racer took a unique key first, or Postgres
    /// aborted a conflicting transaction.
    public static func isRetryable(_ error: any Error) -> Bool {
        if case .wrongExpectedVersion = error as? EventStoreError { return true }
        if let error = error as? PostgresError {
            return [.uniqueViolation, .serializationFailure, .deadlockDetected].contains(error.kind)
        }
        return false
    }

    // MARK: - Reads (each on a pooled connection)

    /// Runs `body`'s reads in one transaction under `scope` (BEGIN and the scope in one round trip, COMMIT after):
    /// for read models that need several statements of one org. `body` must not write.
    public func read<T>(in scope: OrgScope, _ body: (Connection) throws -> T) throws -> T {
        try pool.transaction(opening: scope.statement, body)
    }

    /// `read(in:_:)` on another pool of the same database, e.g. a replica's (`DATABASE_READ_URL`).
    public func read<T>(in scope: OrgScope, from other: Pool, _ body: (Connection) throws -> T) throws -> T {
        try other.transaction(opening: scope.statement, body)
    }

    /// The events of one stream from `fromVersion` on, in stream order, at most `limit`.
    public func readStream(
        org: UUID, stream: String, fromVersion: Int = 1, limit: Int = 1000
    ) throws -> [RecordedEvent] {
        try pool.withConnection { try EventReader.readStream(org: org, stream: stream, fromVersion: fromVersion,
                                                            limit: limit, on: $0, in: .org(org)) }
    }

    /// An org's history from `fromSeq` on, by `org_seq` (gapless, commit order), at most `limit`.
    public func readHistory(org: UUID, fromSeq: Int = 1, limit: Int = 1000) throws -> [RecordedEvent] {
        try pool.withConnection {
            try EventReader.readHistory(org: org, fromSeq: fromSeq, limit: limit, on: $0, in: .org(org))
        }
    }

    /// Up to `limit` events of all orgs after `checkpoint`, in `(tx_id, global_pos)` order, behind the xid horizon.
    public func readGlobal(after checkpoint: GlobalCheckpoint, limit: Int = 1000) throws -> [RecordedEvent] {
        try pool.withConnection { try EventReader.readGlobal(after: checkpoint, limit: limit, on: $0) }
    }
}
