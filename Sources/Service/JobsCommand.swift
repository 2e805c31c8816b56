import Commands
import Domain
import EventStore
import Foundation
import Postgres
import Telemetry
import Workers

/// `handoff jobs list|show|retry`: the operator's view of the `jobs` table, as JSON on standard output. `show` adds
/// the job's delivery attempts (`attempts`, from `store_deliveries`: a `store-forward` job's `NotificationForwarded`
/// and `ForwardFailed`, first to last; empty for other kinds).
///
/// `retry` revives a `dead` job: back to `pending`, due now, attempts reset, `retries` + 1; a log line on standard
/// error records who-did-what for operators. It appends no event: a retry changes the outbox, not a business fact,
/// and the job's outcome event (e.g. `RecoveryMailSent`) is what the audit trail shows (docs/jobs.md).
/// Runs as `MIGRATION_DATABASE_URL`, the owner role: the application role reaches `jobs` only through the workers'
/// functions (row-level security, migration 0015). Exit status: 0 done, 1 not found / not dead / database error, 2
/// bad arguments.
public enum JobsCommand {
    static let usage = """
        usage: handoff jobs list [--state pending|enqueued|done|dead] [--org ORG] [--limit N]
               handoff jobs show ID
               handoff jobs retry ID
        """

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" || arguments.isEmpty {
            print(usage)
            return arguments.isEmpty ? 2 : 0
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        let pool = Pool(configuration: PostgresConfiguration(url: configuration.migrationDatabaseURL, poolSize: 1))
        defer { pool.close() }
        do {
            switch (arguments[0], Array(arguments.dropFirst())) {
            case ("list", let rest):
                var state: Job.State?
                var org: UUID?
                var limit = 100
                var index = 0
                while index < rest.count {
                    guard index + 1 < rest.count else { return usageError("\(rest[index]) needs a value") }
                    let value = rest[index + 1]
                    switch rest[index] {
                    case "--state":
                        guard let parsed = Job.State(rawValue: value) else { return usageError("--state \(value)") }
                        state = parsed
                    case "--org":
                        guard let parsed = UUID(canonicalText: value) else { return usageError("--org must be a UUID") }
                        org = parsed
                    case "--limit":
                        guard let parsed = Int(value), (1...10_000).contains(parsed) else {
                            return usageError("--limit must be 1–10000")
                        }
                        limit = parsed
                    default: return usageError("unknown flag \(rest[index])")
                    }
                    index += 2
                }
                let jobs = try pool.withConnection { try JobStore.list(state: state, org: org, limit: limit, on: $0) }
                print(EventJSON.object(["jobs": .array(jobs.map(\.json))]).canonicalText)
                return 0
            case ("show", let rest):
                guard rest.count == 1, let id = Int(rest[0]) else { return usageError("show needs a job id") }
                let found = try pool.withConnection { connection in
                    try JobStore.find(id, on: connection).map {
                        ($0, try DeliveryLog.attempts(jobId: id, on: connection))
                    }
                }
                guard let (job, attempts) = found else {
                    Subcommands.printError("handoff jobs: no job \(id)")
                    return 1
                }
                guard case .object(var shown) = job.json else { return 1 }
                shown["attempts"] = .array(attempts.map(\.json))
                print(EventJSON.object(shown).canonicalText)
                return 0
            case ("retry", let rest):
                guard rest.count == 1, let id = Int(rest[0]) else { return usageError("retry needs a job id") }
                guard let job = try pool.withConnection({ try JobStore.retry(id, now: Date(), on: $0) }) else {
                    Subcommands.printError("handoff jobs: job \(id) does not exist or is not dead")
                    return 1
                }
                Logger(level: .info).info("job retried by an operator", ["job_id": .int(id), "kind": .string(job.kind)])
                print(job.json.canonicalText)
                return 0
            default:
                return usageError("unknown subcommand \(arguments[0])")
            }
        } catch {
            Subcommands.printError("handoff jobs: \(error)")
            return 1
        }
    }

    private static func usageError(_ message: String) -> Int32 {
        Subcommands.printError("handoff jobs: \(message)\n\(usage)")
        return 2
    }
}
