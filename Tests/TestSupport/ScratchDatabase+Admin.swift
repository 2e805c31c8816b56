import Foundation

extension ScratchDatabase {
    /// Runs `handoff admin <arguments>` (the built binary) against this database: the application role, the owner
    /// for migrations; `environment` adds or overrides variables. Waits up to 120 s.
    public func admin(_ arguments: [String], environment extra: [String: String] = [:]) throws -> AdminOutcome {
        try handoff(["admin"] + arguments, environment: extra)
    }

    /// Runs `handoff <arguments>` (the built binary) against this database, as `admin` does (e.g. `audit export`).
    public func handoff(_ arguments: [String], environment extra: [String: String] = [:]) throws -> AdminOutcome {
        let folder = try TestEnvironment.scratchFolder()
        let stem = folder + "/admin-\(UInt64.random(in: 0...UInt64.max))"
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": appURL, "MIGRATION_DATABASE_URL": ownerURL, "LOG_LEVEL": "error",
        ]) { $1 }.merging(extra) { $1 }
        let child = try ChildProcess(
            ["sh", "-c", "out=\"$1\"; err=\"$2\"; shift 2; exec \"$@\" >\"$out\" 2>\"$err\"", "sh",
             stem + ".out", stem + ".err", try HandoffBinary.path()] + arguments,
            environment: environment)
        let status = try child.wait(timeout: 120)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return AdminOutcome(status: status, stdout: read(stem + ".out"), stderr: read(stem + ".err"))
    }

    /// Creates an org and a project through `handoff admin`; `extra` are `project create` flags.
    /// Returns (org, project, key), the key being the project's first secret key.
    public func tenant(_ extra: [String] = []) throws -> (org: String, project: String, key: String) {
        let org = try admin(["org", "create", "--name", "Org"]).json()["orgId"] as! String
        let created = try admin(["project", "create", "--org", org, "--name", "App"] + extra).json()
        return (org, created["projectId"] as! String, created["secretKey"] as! String)
    }
}
