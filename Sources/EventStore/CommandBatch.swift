import Foundation
import Postgres

/// One command waiting for a group-commit batch (`EventLog.transact`): its org scope, its retry budget, and its body.
///
/// The body is the caller's decider with its result type erased (it writes its result where the caller reads it).
/// It is a non-escaping closure made escapable for the time the caller waits (`withoutActuallyEscaping`): the caller
/// calls `release()` before it returns, and nothing else keeps the body.
final class BatchedCommand: @unchecked Sendable {
    let scope: OrgScope
    let maxAttempts: Int
    private var body: ((EventTransaction) throws -> Void)?

    init(scope: OrgScope, maxAttempts: Int, body: @escaping (EventTransaction) throws -> Void) {
        self.scope = scope
        self.maxAttempts = maxAttempts
        self.body = body
    }

    /// Runs the decider once in `transaction`.
    func run(_ transaction: EventTransaction) throws {
        guard let body else { throw EventStoreError.malformedRow("a batched command ran after its caller left") }
        try body(transaction)
    }

    /// Drops the body (the caller is about to return).
    func release() { body = nil }
}

/// Runs a batch of commands in one open transaction, a savepoint each: a command's refusal, conflict or failure rolls
/// back only itself, and a retryable one runs again at once with fresh reads (which see the commands before it in
/// the batch and everything committed), up to its own `maxAttempts` — except a deadlock, which is answered as
/// `Deadlocked` for the caller to run the command again alone after the batch.
///
/// Each command sets its own org scope after its savepoint, so row-level security holds per command. `RELEASE` of the
/// previous savepoint, `SAVEPOINT` and the scope go in front of the command's first statement, in its round trip
/// (`Connection.sendWithNext`): a command costs only its own statements' round trips. Throws only when the
/// transaction itself is lost (a statement of the batch's own failed): then nothing of the batch may be kept.
struct CommandBatch {
    static let savepoint = "command"

    let connection: Connection
    let projections: [any InlineProjection]

    /// A command that met a deadlock inside the batch: retrying it there cannot help, because the locks the batch's
    /// earlier commands hold stay taken until the batch commits, so the same cycle forms again (and the same command
    /// loses it again). It is rolled back to its savepoint and runs alone once the batch has committed.
    struct Deadlocked: Error {
        let error: any Error
    }

    /// One result per command, in order; throws when the whole batch is lost.
    func run(_ batch: [BatchedCommand]) throws -> [Result<Void, any Error>] {
        var results: [Result<Void, any Error>] = []
        results.reserveCapacity(batch.count)
        var savepointOpen = false
        for command in batch {
            var attempt = 1
            while true {
                var opening = [Statement("SAVEPOINT \(Self.savepoint)"), command.scope.statement]
                if savepointOpen { opening.insert(Statement("RELEASE SAVEPOINT \(Self.savepoint)"), at: 0) }
                let queuedBefore = connection.unsentStatementCount
                connection.sendWithNext(opening)
                let opened = connection.mark
                do {
                    try command.run(EventTransaction(connection: connection, projections: projections))
                    if !connection.hasSentOrQueued(since: opened) {
                        // The command sent and queued nothing: the savepoint before it stays the open one (and the
                        // batch's BEGIN, when nothing was sent yet, waits for the next command).
                        connection.dropUnsentStatements(keeping: queuedBefore)
                    } else {
                        try connection.sendQueued()
                        savepointOpen = true
                    }
                    if connection.isInFailedTransaction {
                        throw PostgresError(kind: .other, message: "a command swallowed a statement error")
                    }
                    results.append(.success(()))
                    break
                } catch {
                    if connection.isBroken { throw error }
                    if !connection.hasSent(since: opened) {
                        // Nothing of the command reached Postgres: nothing to roll back.
                        connection.dropUnsentStatements(keeping: queuedBefore)
                    } else {
                        connection.dropUnsentStatements()
                        savepointOpen = true
                        try connection.execute("ROLLBACK TO SAVEPOINT \(Self.savepoint)")
                    }
                    if (error as? PostgresError)?.kind == .deadlockDetected {
                        results.append(.failure(Deadlocked(error: error)))
                        break
                    }
                    if attempt < command.maxAttempts && EventLog.isRetryable(error) {
                        attempt += 1
                        continue
                    }
                    results.append(.failure(error))
                    break
                }
            }
        }
        return results
    }
}
