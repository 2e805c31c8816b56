import EventStore
import Foundation
import Postgres

/// `handoff audit verify|export|head|keys`: hash-chain verification, history export, signed chain heads and the audit
/// public keys, for auditors (docs/audit.md).
///
/// Runs as `MIGRATION_DATABASE_URL`, the owner role: it reads every org's log, which row-level security hides from
/// the application role. `export` (and `report`) read one org's history from `DATABASE_READ_URL` when it is set.
/// Exit status: 0 verified / exported / printed; 1 a chain is broken or does not reach a signed head (verify), or the
/// org has no signed head yet (head); 2 bad arguments or configuration (the message names the argument); 3 the
/// command could not run (database unreachable, query failed).
public enum AuditCommand {
    /// What the arguments ask for.
    public enum Action: Equatable, Sendable {
        /// Verify one org, or every org when nil; with `head` (a file), also check one org's history against that
        /// signed head, with the public keys of `keys` (a file) or else of the database.
        case verify(org: UUID?, head: String? = nil, keys: String? = nil)
        /// Export one org's history from `fromSeq` on; a CSV export writes its header and trailer to `manifest`.
        case export(org: UUID, format: AuditExportFormat, fromSeq: Int, manifest: String? = nil)
        /// Print the org's latest signed head.
        case head(org: UUID)
        /// Print every audit public key.
        case keys
    }

    /// A refusal of the arguments; `message` names the argument at fault.
    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The usage text printed with every refusal and by `handoff audit --help`.
    public static let usage = """
        usage: handoff audit verify [--org ID [--head HEAD.json [--keys KEYS.json]]]
               handoff audit export --org ID --format jsonl|csv [--from-seq N] [--manifest FILE]
               handoff audit head --org ID
               handoff audit keys
        \(reportUsage)
        """

    /// The arguments each subcommand takes.
    static let subcommands: [String: Set<String>] = [
        "verify": ["--org", "--head", "--keys"], "export": ["--org", "--format", "--from-seq", "--manifest"],
        "head": ["--org"], "keys": [],
    ]

    /// Parses the arguments after `audit`; throws `UsageError` naming the bad argument.
    public static func parse(_ arguments: [String]) throws -> Action {
        guard let subcommand = arguments.first else {
            throw UsageError(message: "missing subcommand (verify, export, head, keys or report)")
        }
        guard let known = subcommands[subcommand] else {
            throw UsageError(message: "unknown subcommand \"\(subcommand)\" (expected verify, export, head, keys or "
                + "report)")
        }
        let options = try flags(Array(arguments.dropFirst()), known: known)
        let org = try options["--org"].map { text in
            guard let org = UUID(canonicalText: text) else {
                throw UsageError(message: "--org must be an organization id (a UUID), got \"\(text)\"")
            }
            return org
        }
        switch subcommand {
        case "verify":
            if options["--head"] != nil && org == nil { throw UsageError(message: "--head needs --org") }
            if options["--keys"] != nil && options["--head"] == nil {
                throw UsageError(message: "--keys needs --head")
            }
            return .verify(org: org, head: options["--head"], keys: options["--keys"])
        case "head":
            guard let org else { throw UsageError(message: "--org is required for head") }
            return .head(org: org)
        case "keys":
            return .keys
        default:
            return try export(org: org, options: options)
        }
    }

    /// `--name value` or `--name=value` pairs among `known`; an unknown, repeated or valueless one is refused.
    static func flags(_ arguments: [String], known: Set<String>) throws -> [String: String] {
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            var name = arguments[index]
            var value: String?
            if let equals = name.firstIndex(of: "="), name.hasPrefix("--") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard known.contains(name) else { throw UsageError(message: "unknown argument \"\(name)\"") }
            guard options[name] == nil else { throw UsageError(message: "\(name) given twice") }
            if value == nil {
                index += 1
                guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
                value = arguments[index]
            }
            options[name] = value
            index += 1
        }
        return options
    }

    private static func export(org: UUID?, options: [String: String]) throws -> Action {
        guard let org else { throw UsageError(message: "--org is required for export") }
        guard let formatText = options["--format"] else {
            throw UsageError(message: "--format is required for export (jsonl or csv)")
        }
        guard let format = AuditExportFormat(rawValue: formatText) else {
            throw UsageError(message: "--format must be jsonl or csv, got \"\(formatText)\"")
        }
        var fromSeq = 1
        if let text = options["--from-seq"] {
            guard let number = Int(text), number >= 1 else {
                throw UsageError(message: "--from-seq must be an integer of at least 1, got \"\(text)\"")
            }
            fromSeq = number
        }
        let manifest = options["--manifest"]
        if manifest != nil && format != .csv {
            throw UsageError(message: "--manifest is for --format csv (a JSONL export carries its header and "
                + "trailer as its first and last lines)")
        }
        if manifest?.isEmpty == true { throw UsageError(message: "--manifest needs a file name") }
        return .export(org: org, format: format, fromSeq: fromSeq, manifest: manifest)
    }

    /// Runs `handoff audit …` with the arguments after `audit`; returns the exit status.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            print(usage)
            return 0
        }
        if arguments.first == "report" {
            return runReport(arguments: Array(arguments.dropFirst()), environment: environment)
        }
        let action: Action
        do {
            action = try parse(arguments)
        } catch {
            Subcommands.printError("handoff audit: \(error)\n\(usage)")
            return 2
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        let connection: Connection
        if case .export = action {
            guard let reader = orgReadConnection(configuration, command: "audit export") else { return 3 }
            connection = reader
        } else {
            do {
                connection = try Connection(configuration: PostgresConfiguration(
                    url: configuration.migrationDatabaseURL, poolSize: 1, statementTimeoutMilliseconds: 600_000))
            } catch {
                Subcommands.printError("handoff audit: cannot connect to MIGRATION_DATABASE_URL: \(error)")
                return 3
            }
        }
        defer { connection.close() }
        do {
            switch action {
            case .verify(let org, nil, _):
                return try verify(org: org, on: connection)
            case .verify(let org, let head?, let keys):
                guard let org else { return 2 }
                return try verify(org: org, head: head, keysFile: keys, on: connection)
            case .export(let org, let format, let fromSeq, let manifest):
                return try export(org: org, format: format, fromSeq: fromSeq, manifest: manifest, on: connection)
            case .head(let org):
                return try printHead(org: org, on: connection)
            case .keys:
                print(AuditKey.document(try ChainHeadStore.keys(on: connection)).canonicalText)
                return 0
            }
        } catch let error as UsageError {
            Subcommands.printError("handoff audit: \(error)")
            return 2
        } catch let refusal as AuditExport.Refusal {
            Subcommands.printError("handoff audit: \(refusal)")
            return 2
        } catch {
            Subcommands.printError("handoff audit: \(error)")
            return 3
        }
    }

    /// Prints one line per broken org and exits 1, or a summary and exits 0.
    static func verify(org: UUID?, on connection: Connection) throws -> Int32 {
        let counts = try connection.query("""
            SELECT count(*)::bigint AS orgs, coalesce(sum(last_seq), 0)::bigint AS events FROM event_orgs
            WHERE $1::uuid IS NULL OR org_id = $1::uuid
            """, [.optional(org?.lowercasedText)]).rows[0]
        let breaks = try AuditVerifier.verify(org: org, on: connection)
        for broken in breaks {
            print("BROKEN org \(broken.org.lowercasedText) at org_seq \(broken.orgSeq): "
                + describe(broken.reason))
        }
        let (orgs, events) = (try counts.int("orgs"), try counts.int("events"))
        if !breaks.isEmpty {
            print("\(breaks.count) of \(orgs) orgs broken")
            return 1
        }
        let orgWord = orgs == 1 ? "org" : "orgs"
        let eventWord = events == 1 ? "event" : "events"
        print("verified \(orgs) \(orgWord), \(events) \(eventWord): every hash chain and org_seq sequence is intact")
        return 0
    }

    /// A reason in words, for the operator.
    static func describe(_ reason: ChainBreak.Reason) -> String {
        switch reason {
        case .gap(let found):
            return found < 0 ? "org_seq is missing (history ends early)" : "org_seq is missing (next row is \(found))"
        case .previousHashMismatch: return "prev_hash is not the previous event's hash"
        case .hashMismatch: return "hash does not match the event's contents (the row was altered)"
        case .invalidValue(let field):
            return "\(field) holds a value the append never writes (the row was inserted around it)"
        case .unreadable(let detail): return "the row cannot be read: \(detail)"
        case .counterSequenceMismatch(let counterSeq):
            return counterSeq.map { "the org counter says last_seq \($0)" } ?? "the org has no counter row"
        case .counterHashMismatch: return "the org counter's last_hash is not the last event's hash"
        }
    }

    /// Streams the export to standard output, progress to standard error; a CSV export's header and trailer go to
    /// `manifest` when given (written once the export is complete).
    static func export(org: UUID, format: AuditExportFormat, fromSeq: Int, manifest: String?,
                       on connection: Connection) throws -> Int32 {
        let reporter = ProgressReporter(label: "export")
        var last = (done: 0, total: 0)
        let output = FileHandle.standardOutput
        let lines = try AuditExport.export(
            org: org, fromSeq: fromSeq, format: format, on: connection,
            write: { bytes in try output.write(contentsOf: bytes) },
            progress: { done, total in
                last = (done, total)
                reporter.update(done: done, total: total)
            })
        reporter.finish(done: last.done, total: last.total)
        if let manifest {
            do {
                try Data(lines.fileBytes).write(to: URL(fileURLWithPath: manifest), options: .atomic)
            } catch {
                throw UsageError(message: "--manifest: cannot write \(manifest): \(error.localizedDescription)")
            }
        }
        return 0
    }
}
