import Commands
import EventStore
import Foundation
import Postgres

/// `handoff replay`: rebuilds every registered inline projection from the log and swaps the tables in
/// (`Replayer`), with progress on standard error. Runs as `MIGRATION_DATABASE_URL` (the owner role).
///
/// Exit status: 0 done (also when nothing is registered); 2 bad arguments or configuration; 1 the replay failed
/// (the live tables are then untouched).
public enum ReplayCommand {
    /// Runs the replay of `projections` (the service's registry unless a caller passes others).
    public static func run(
        arguments: [String], environment: [String: String],
        projections: [any InlineProjection] = ProjectionRegistry.service
    ) -> Int32 {
        if let argument = arguments.first {
            if argument == "--help" || argument == "-h" {
                print("usage: handoff replay\n\nRebuilds every registered projection from the event log.")
                return 0
            }
            Subcommands.printError("handoff replay: unknown argument \"\(argument)\"\nusage: handoff replay")
            return 2
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        let replayer = Replayer(projections: projections)
        guard !replayer.tables.isEmpty else {
            print("handoff replay: no projections are registered; nothing to rebuild")
            return 0
        }
        do {
            let connection = try Connection(configuration: PostgresConfiguration(
                url: configuration.migrationDatabaseURL, poolSize: 1, statementTimeoutMilliseconds: 0))
            defer { connection.close() }
            let reporter = ProgressReporter(label: "replay")
            var last = Replayer.Progress(applied: 0, total: 0)
            let report = try replayer.run(on: connection) { progress in
                last = progress
                reporter.update(done: progress.applied, total: progress.total)
            }
            reporter.finish(done: last.applied, total: last.total)
            print("replayed \(report.rebuilt + report.caughtUp) events (\(report.caughtUp) during the swap) into "
                + report.tables.joined(separator: ", "))
            return 0
        } catch {
            Subcommands.printError("handoff replay: \(error)")
            return 1
        }
    }
}
