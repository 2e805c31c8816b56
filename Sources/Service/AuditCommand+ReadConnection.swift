import Foundation
import Postgres

/// Where `audit export` and `audit report` read: a replica when `DATABASE_READ_URL` names one (docs/operations.md,
/// "Read scaling"), so an auditor's long read leaves the primary alone.
extension AuditCommand {
    /// A connection for reading one org's history: `DATABASE_READ_URL` when set and reachable, else
    /// `MIGRATION_DATABASE_URL` (a replica that is down is named on standard error and skipped); nil, after an
    /// error on standard error, when neither connects.
    ///
    /// The replica's URL is usually the application role: every read on it must run in a transaction scoped to the
    /// org (`OrgScope`), which row-level security then lets through. The replica answers with the history it has
    /// replayed, which may end a moment before the primary's; the export's trailer names its last `org_seq`.
    static func orgReadConnection(_ configuration: Configuration, command: String) -> Connection? {
        if let readURL = configuration.databaseReadURL {
            do {
                return try Connection(configuration: PostgresConfiguration(
                    url: readURL, poolSize: 1, statementTimeoutMilliseconds: 600_000))
            } catch {
                Subcommands.printError("handoff \(command): DATABASE_READ_URL cannot be reached (\(error)); "
                    + "reading from MIGRATION_DATABASE_URL")
            }
        }
        do {
            return try Connection(configuration: PostgresConfiguration(
                url: configuration.migrationDatabaseURL, poolSize: 1, statementTimeoutMilliseconds: 600_000))
        } catch {
            Subcommands.printError("handoff \(command): cannot connect to MIGRATION_DATABASE_URL: \(error)")
            return nil
        }
    }
}
