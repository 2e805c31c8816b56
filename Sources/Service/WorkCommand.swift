import Foundation
import Telemetry

/// `handoff work [--only ROLE,…]`: runs worker roles until SIGTERM/SIGINT, then drains in-flight jobs and exits 0.
/// `handoff dev` uses `serveAndWork` to run the API and every role in one process.
public enum WorkCommand {
    static let usage = """
        usage: handoff work [--only ROLE,…]
        roles: \(RunningWorkers.roles.joined(separator: ", ")) (default: all)
        """

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        TerminationSignals.block()
        let roles: Set<String>
        switch parseRoles(arguments) {
        case .success(let parsed): roles = parsed
        case .failure(let problem):
            Subcommands.printError("handoff work: \(problem.message)\n\(usage)")
            return 2
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        let logger = Logger(level: configuration.logLevel, buffered: true)
        defer { logger.flush() }
        let workers: RunningWorkers
        do {
            workers = try RunningWorkers(configuration: configuration, roles: roles, logger: logger)
        } catch {
            logger.error("could not start the workers", ["error": .string("\(error)")])
            return 1
        }
        let signal = TerminationSignals.wait()
        logger.info("shutting down", ["signal": .string(signal)])
        workers.stop()
        return 0
    }

    /// `handoff dev` after migrating: the API and every worker role in this process until SIGTERM/SIGINT.
    static func serveAndWork(environment: [String: String]) -> Int32 {
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        let logger = Logger(level: configuration.logLevel, buffered: true)
        defer { logger.flush() }
        let api: RunningAPI
        let workers: RunningWorkers
        do {
            api = try RunningAPI(configuration: configuration, logger: logger)
            workers = try RunningWorkers(configuration: configuration, roles: Set(RunningWorkers.roles), logger: logger)
        } catch {
            logger.error("could not start", ["error": .string("\(error)")])
            return 1
        }
        let signal = TerminationSignals.wait()
        logger.info("shutting down", ["signal": .string(signal)])
        api.stop(drainSeconds: Double(configuration.shutdownGraceSeconds))
        workers.stop()
        return 0
    }

    struct UsageProblem: Error { let message: String }

    /// `--only a,b` → {a, b} (every name must be a role); no arguments → every role.
    static func parseRoles(_ arguments: [String]) -> Result<Set<String>, UsageProblem> {
        guard !arguments.isEmpty else { return .success(Set(RunningWorkers.roles)) }
        guard arguments.count == 2, arguments[0] == "--only" else {
            return .failure(UsageProblem(message: "unexpected arguments \(arguments.joined(separator: " "))"))
        }
        let names = arguments[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { return .failure(UsageProblem(message: "--only needs at least one role")) }
        for name in names where !RunningWorkers.roles.contains(name) {
            return .failure(UsageProblem(message: "unknown role '\(name)'"))
        }
        return .success(Set(names))
    }
}
