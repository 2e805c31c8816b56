import Domain
import EventStore
import Foundation
import Migrate
import Postgres
import TestSupport

/// A fresh database migrated with the bundled migrations, reached as owner, application role and superuser.
struct AuditFixture {
    let database: ScratchDatabase

    /// Creates and migrates a database of its own.
    static func migrated() throws -> AuditFixture {
        AuditFixture(database: try ScratchDatabase.migrated(prefix: "audit"))
    }

    func appConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.appURL))
    }

    func ownerConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.ownerURL, statementTimeoutMilliseconds: 0))
    }

    func adminConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.adminURL))
    }

    /// An `EventLog` over a pool of the application role, as `serve` builds it.
    func store(poolSize: Int = 4, projections: [any InlineProjection] = []) -> EventLog {
        EventLog(pool: Pool(configuration: PostgresConfiguration(url: database.appURL, poolSize: poolSize,
                                                                 checkoutTimeout: 30)),
                 projections: projections)
    }

    /// The environment `handoff` gets in these tests: the app role for serve/audit, the owner for migrate/replay.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": database.appURL, "MIGRATION_DATABASE_URL": database.ownerURL, "LOG_LEVEL": "error",
        ]) { $1 }
    }

    /// Runs `handoff <arguments>` with standard output and standard error in separate files.
    func handoff(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandOutcome {
        try CommandOutcome.run([try HandoffBinary.path()] + arguments, environment: environment ?? self.environment)
    }
}

/// What a child process printed and how it ended.
struct CommandOutcome {
    var status: ChildProcess.Termination
    var stdout: String
    var stderr: String
    /// Where standard output was written (for large outputs such as exports).
    var stdoutPath: String

    /// Runs `arguments` through `sh` so that standard output and standard error go to two files.
    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandOutcome {
        let folder = try TestEnvironment.scratchFolder()
        let stem = folder + "/audit-\(UInt64.random(in: 0...UInt64.max))"
        let child = try ChildProcess(["sh", "-c", "out=\"$1\"; err=\"$2\"; shift 2; exec \"$@\" >\"$out\" 2>\"$err\"",
                                      "sh", stem + ".out", stem + ".err"] + arguments, environment: environment)
        let status = try child.wait(timeout: 120)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return CommandOutcome(status: status, stdout: read(stem + ".out"), stderr: read(stem + ".err"),
                              stdoutPath: stem + ".out")
    }
}

let auditMetadata = EventMetadata(actor: .system("audit-tests"), requestId: "req-audit", correlationId: "corr-audit")

