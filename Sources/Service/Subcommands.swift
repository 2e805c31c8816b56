import Foundation
import Migrate
import Postgres
import Telemetry

/// The subcommands of `handoff`; each returns the process exit status.
public enum Subcommands {
    /// `handoff serve`: the HTTP API until SIGTERM/SIGINT, then drain and exit 0.
    public static func serve(environment: [String: String]) -> Int32 {
        TerminationSignals.block()
        guard let configuration = configuration(from: environment) else { return 2 }
        let logger = Logger(level: configuration.logLevel, buffered: true)
        defer { logger.flush() }
        let api: RunningAPI
        do {
            api = try RunningAPI(configuration: configuration, logger: logger)
        } catch {
            logger.error("could not start the API", ["error": .string("\(error)")])
            return 1
        }
        let signal = TerminationSignals.wait()
        logger.info("shutting down", ["signal": .string(signal)])
        api.stop(drainSeconds: Double(configuration.shutdownGraceSeconds))
        return 0
    }

    /// `handoff migrate`: applies pending migrations with `MIGRATION_DATABASE_URL`.
    public static func migrate(environment: [String: String]) -> Int32 {
        guard let configuration = configuration(from: environment) else { return 2 }
        let logger = Logger(level: configuration.logLevel)
        do {
            let connection = try Connection(configuration: PostgresConfiguration(
                url: configuration.migrationDatabaseURL, poolSize: 1, statementTimeoutMilliseconds: 600_000))
            let migrator = Migrator(migrations: try Migration.bundled())
            let report = try migrator.run(on: connection) { line in logger.info(line) }
            logger.info("migrations up to date", [
                "applied": .int(report.applied.count), "already_applied": .int(report.alreadyApplied.count),
            ])
            return 0
        } catch {
            logger.error("migration failed", ["error": .string("\(error)")])
            printError("handoff migrate: \(error)")
            return 1
        }
    }

    /// `handoff dev`: migrate, then serve and run every worker role in this one process.
    public static func dev(environment: [String: String]) -> Int32 {
        TerminationSignals.block()
        let status = migrate(environment: environment)
        guard status == 0 else { return status }
        return WorkCommand.serveAndWork(environment: environment)
    }

    /// `handoff help`: the subcommands and every configuration variable.
    public static func help() -> Int32 {
        var text = """
            usage: handoff <command>

            commands:
              serve     run the HTTP API until SIGTERM/SIGINT (then drain and exit 0)
              migrate   apply pending SQL migrations (advisory-locked, checksummed, idempotent)
              dev       migrate, then serve and work in one process (quick start)
              work [--only ROLE,…]
                        run worker roles until SIGTERM/SIGINT (then finish in-flight jobs and exit 0);
                        roles: dispatcher, relay, sweeper, checkpoint, mail, forward, store, probe
                        (default: all; docs/jobs.md)
              jobs list [--state S] [--org ID] [--limit N] | show ID | retry ID
                        see jobs as JSON; retry puts a dead job back to pending
                        (as MIGRATION_DATABASE_URL)
              replay    rebuild every registered projection from the event log and swap it in
                        (as MIGRATION_DATABASE_URL; progress on stderr)
              audit verify [--org ID [--head HEAD.json [--keys KEYS.json]]]
                        recompute every org's hash chain and org_seq continuity, and check one
                        org against a signed head; exit 1 naming the org and first bad org_seq
                        when one is broken (as MIGRATION_DATABASE_URL)
              audit export --org ID --format jsonl|csv [--from-seq N] [--manifest FILE]
                        stream an org's history with each event's hashes to stdout, with a
                        header and a trailer (docs/audit.md; as MIGRATION_DATABASE_URL)
              audit head --org ID | audit keys
                        the org's latest signed chain head; the audit public keys
              keys rotate master [--batch-size N] | keys status
                        re-wrap every data key under HANDOFF_MASTER_KEY (online, batched,
                        resumable; old keys in HANDOFF_MASTER_KEY_PREVIOUS); which master key
                        wraps how many keys (as MIGRATION_DATABASE_URL; docs/operations.md)
              admin org|project|key …
                        create organizations, projects and secret keys, set an org's auditor
                        URL (JSON on stdout; see handoff admin --help)
              help      this text

            configuration (environment variables, default in brackets):

            """
        for variable in Configuration.variables {
            let name = variable.name.padding(toLength: 33, withPad: " ", startingAt: 0)
            text += "  \(name)\(variable.meaning) [\(variable.defaultValue)]\n"
        }
        print(text, terminator: "")
        return 0
    }

    /// Reads the configuration, or prints the problem naming the variable and returns nil.
    static func configuration(from environment: [String: String]) -> Configuration? {
        do {
            return try Configuration(environment: environment)
        } catch let error as ConfigurationError {
            printError("handoff: invalid configuration: \(error)")
            return nil
        } catch {
            printError("handoff: invalid configuration: \(error)")
            return nil
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
