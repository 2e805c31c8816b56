import Commands
import Domain
import EventStore
import Postgres

extension AdminCommand {
    /// What an admin subcommand's body works with: the configuration and one pooled connection.
    struct Session {
        let configuration: Configuration
        let pool: Pool

        /// An event log on the session's connection with the service's projections.
        var log: EventLog { EventLog(pool: pool, projections: ProjectionRegistry.service) }

        /// The identity secrets; a usage error when they are not configured.
        func identity() throws -> IdentitySecrets {
            guard let secrets = configuration.identity else {
                throw UsageError(message: "HANDOFF_MASTER_KEY, HANDOFF_LOOKUP_PEPPER and HANDOFF_PASS_KEYS are "
                    + "required (the identity secrets)")
            }
            return secrets
        }

        /// The master key ring; a usage error naming `why` it is needed when it is not configured.
        func masterKeys(_ why: String) throws -> MasterKeyRing {
            guard let ring = configuration.masterKeyRing else {
                throw UsageError(message: "HANDOFF_MASTER_KEY is required: \(why)")
            }
            return ring
        }
    }

    /// Runs `handoff admin <words>` the way every admin subcommand runs: `parse` first, then `body` with the
    /// configuration and a one-connection pool, which answers the exit status. A usage error prints `usage` and exits
    /// 2; a refusal exits 2 when the input is invalid, else 1; anything else exits 1. Messages go to standard error,
    /// prefixed with the command's words.
    static func runSubcommand<Command>(
        _ words: String, usage: String, environment: [String: String], parse: () throws -> Command,
        _ body: (Command, Session) throws -> Int32
    ) -> Int32 {
        do {
            let command = try parse()
            guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
            let pool = Pool(configuration: PostgresConfiguration(url: configuration.databaseURL, poolSize: 1))
            defer { pool.close() }
            return try body(command, Session(configuration: configuration, pool: pool))
        } catch let error as UsageError {
            Subcommands.printError("handoff admin \(words): \(error.message)\n\(usage)")
            return 2
        } catch let refusal as Refusal {
            Subcommands.printError("handoff admin \(words): \(refusal.message)")
            return refusal.kind == .invalid ? 2 : 1
        } catch {
            Subcommands.printError("handoff admin \(words): \(error)")
            return 1
        }
    }
}
