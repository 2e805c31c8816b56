import Domain
import EventStore
import Foundation
import Postgres

/// `handoff keys rotate master | status`: master-key rotation (docs/operations.md, "Rotating the master key").
///
/// Runs as `MIGRATION_DATABASE_URL`, the owner role (re-wrapping updates `subject_keys`, which the application role
/// cannot). `rotate master` re-wraps every live subject key under `HANDOFF_MASTER_KEY`, opening each with the key its
/// row names (`HANDOFF_MASTER_KEY` or one of `HANDOFF_MASTER_KEY_PREVIOUS`), in batches, with progress on standard
/// error and a JSON summary on standard output. SIGINT or SIGTERM stops it after the batch in flight; running it
/// again resumes. Exit status: 0 every live key is under the current master key (the previous keys are no longer
/// needed); 1 keys remain under another key (rows that no configured key opens, or written meanwhile by a process
/// that still wraps with an old key: they are listed) or the database failed; 2 bad arguments or configuration;
/// 130/143 stopped by SIGINT/SIGTERM (run again to resume).
public enum KeysCommand {
    /// What the arguments ask for.
    public enum Action: Equatable, Sendable {
        /// Re-wrap every live subject key under the current master key, `batchSize` rows per transaction.
        case rotateMaster(batchSize: Int)
        /// Print the master key ids and the live rows under each.
        case status
    }

    /// A refusal of the arguments; `message` names the argument at fault.
    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The usage text printed with every refusal and by `handoff keys --help`.
    public static let usage = """
        usage: handoff keys rotate master [--batch-size N]
               handoff keys status
        """

    /// The default rows per transaction of `rotate master`.
    public static let defaultBatchSize = 500

    /// Parses the arguments after `keys`; throws `UsageError` naming the bad argument.
    public static func parse(_ arguments: [String]) throws -> Action {
        switch arguments.first {
        case "status":
            if let extra = arguments.dropFirst().first {
                throw UsageError(message: "unknown argument \"\(extra)\" (status takes none)")
            }
            return .status
        case "rotate":
            guard arguments.count >= 2 else { throw UsageError(message: "missing key to rotate (master)") }
            guard arguments[1] == "master" else {
                throw UsageError(message: "cannot rotate \"\(arguments[1])\": only master is rotated by a command; "
                    + "pass keys and the audit key are rotated by configuration (docs/operations.md)")
            }
            var batchSize = defaultBatchSize
            var rest = Array(arguments.dropFirst(2))
            while let flag = rest.first {
                guard flag == "--batch-size" else { throw UsageError(message: "unknown argument \"\(flag)\"") }
                guard rest.count >= 2, let value = Int(rest[1]), (1...10_000).contains(value) else {
                    throw UsageError(message: "--batch-size must be a whole number from 1 to 10000")
                }
                batchSize = value
                rest.removeFirst(2)
            }
            return .rotateMaster(batchSize: batchSize)
        case let other?:
            throw UsageError(message: "unknown subcommand \"\(other)\" (expected rotate or status)")
        case nil:
            throw UsageError(message: "missing subcommand (rotate or status)")
        }
    }

    /// Runs `handoff keys …`; returns the exit status.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" {
            print(usage)
            return 0
        }
        let action: Action
        do {
            action = try parse(arguments)
        } catch {
            Subcommands.printError("handoff keys: \(error)\n\(usage)")
            return 2
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        guard let masterKeys = configuration.masterKeyRing else {
            Subcommands.printError("handoff keys: HANDOFF_MASTER_KEY is required (the key every subject key is "
                + "wrapped with after the rotation; the old key goes in HANDOFF_MASTER_KEY_PREVIOUS)")
            return 2
        }
        do {
            let connection = try Connection(configuration: PostgresConfiguration(
                url: configuration.migrationDatabaseURL, poolSize: 1, statementTimeoutMilliseconds: 0))
            defer { connection.close() }
            switch action {
            case .status:
                print(try status(masterKeys, on: connection).canonicalText)
                return 0
            case .rotateMaster(let batchSize):
                return try rotate(masterKeys, batchSize: batchSize, on: connection)
            }
        } catch {
            Subcommands.printError("handoff keys: \(error) (run the command again to resume)")
            return 1
        }
    }

    /// `{"currentKeyId","previousKeyIds","liveKeys":{id: count},"destroyedKeys","remaining"}`.
    static func status(_ masterKeys: MasterKeyRing, on connection: Connection) throws -> EventJSON {
        let live = try MasterKeyRotation.liveRows(on: connection)
        let remaining = live.filter { $0.key != masterKeys.current.id }.values.reduce(0, +)
        var liveKeys: [String: EventJSON] = [:]
        for (id, count) in live { liveKeys[id] = .integer(Int64(count)) }
        var members: [String: EventJSON] = [:]
        members["currentKeyId"] = .string(masterKeys.current.id)
        members["previousKeyIds"] = .array(masterKeys.previous.map { EventJSON.string($0.id) })
        members["liveKeys"] = .object(liveKeys)
        members["destroyedKeys"] = .integer(Int64(try MasterKeyRotation.destroyedRows(on: connection)))
        members["remaining"] = .integer(Int64(remaining))
        return .object(members)
    }

    private static func rotate(_ masterKeys: MasterKeyRing, batchSize: Int, on connection: Connection) throws
        -> Int32
    {
        let signals = PendingTerminationSignal()
        let reporter = ProgressReporter(label: "rotate master key", unit: "keys")
        let rotation = MasterKeyRotation(masterKeys: masterKeys, batchSize: batchSize)
        var last = MasterKeyRotation.Progress()
        let report = try rotation.run(on: connection, shouldStop: { signals.received != nil }) { progress in
            last = progress
            reporter.update(done: progress.done, total: progress.total)
        }
        reporter.finish(done: last.done, total: last.total)
        print(summary(report, masterKeyID: masterKeys.current.id).canonicalText)
        if let signal = signals.received, report.stopped {
            Subcommands.printError("handoff keys: stopped by \(signal) after \(last.done) of \(last.total) keys; "
                + "run the same command again to resume")
            return signal == "SIGTERM" ? 143 : 130
        }
        for row in report.unopenableRows {
            Subcommands.printError("handoff keys: org \(row.org.lowercasedText) subject \(row.subject): "
                + "no configured master key opens its data key (left as it is)")
        }
        guard report.isComplete else {
            let left = report.remaining.sorted { $0.key < $1.key }.map { "\($0.value) under \($0.key)" }
            Subcommands.printError("handoff keys: not complete, keys remain under another master key ("
                + left.joined(separator: ", ") + "); keep HANDOFF_MASTER_KEY_PREVIOUS and run again "
                + "(docs/operations.md)")
            return 1
        }
        return 0
    }

    /// `{"complete","masterKeyId","remaining":{id: count},"rewrapped","skipped","unopenable"}`.
    static func summary(_ report: MasterKeyRotation.Report, masterKeyID: String) -> EventJSON {
        let progress = report.progress
        var remaining: [String: EventJSON] = [:]
        for (id, count) in report.remaining { remaining[id] = .integer(Int64(count)) }
        var members: [String: EventJSON] = [:]
        members["complete"] = .bool(report.isComplete)
        members["masterKeyId"] = .string(masterKeyID)
        members["remaining"] = .object(remaining)
        members["rewrapped"] = .integer(Int64(progress.rewrapped))
        members["skipped"] = .integer(Int64(progress.skipped))
        members["unopenable"] = .integer(Int64(progress.unopenable))
        return .object(members)
    }
}

/// SIGINT and SIGTERM, blocked and polled between batches, so a long command stops at a safe point.
final class PendingTerminationSignal {
    private var set = sigset_t()

    /// Blocks SIGINT and SIGTERM in this thread (the command runs on the main thread and starts none).
    init() {
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// "SIGINT" or "SIGTERM" once either arrived, else nil; it stays pending (blocked) until the process exits.
    var received: String? {
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGTERM) == 1 { return "SIGTERM" }
        if sigismember(&pending, SIGINT) == 1 { return "SIGINT" }
        return nil
    }
}
