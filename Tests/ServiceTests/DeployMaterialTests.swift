import Foundation
import Service
import Testing
import TestSupport

/// `infra/deploy` is in line with what the service reads and what `infra/cluster` runs (issue 19): the Kubernetes
/// YAML parses and wires pgbouncer, Redis with 3 Sentinels and the cluster's variables; the systemd units pass
/// `systemd-analyze verify`; the example environment names only variables `Configuration` reads (`infra/check-deploy`).
@Suite struct DeployMaterialTests {
    @Test func theShippedDeployMaterialPassesItsCheck() throws {
        let (status, output) = try check(deploy: HandoffBinary.packageRoot() + "/infra/deploy")
        #expect(status == .exited(0), "\(output)")
        #expect(output == "infra/deploy: ok\n")
    }

    @Test func aVariableTheServiceDoesNotReadOrASessionPoolIsNamed() throws {
        let folder = try TestEnvironment.scratchFolder() + "/deploy-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: HandoffBinary.packageRoot() + "/infra/deploy", toPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try edit(folder + "/kubernetes.yaml", "  REDIS_MASTER_NAME: handoff", "  REDIS_MASTER: handoff")
        try edit(folder + "/pgbouncer.ini", "pool_mode = transaction", "pool_mode = session")
        try edit(folder + "/handoff-api@.service", "KillSignal=SIGTERM", "KillSignal=SIGTERM\nDrainSeconds=5")

        let (status, output) = try check(deploy: folder)
        #expect(status == .exited(1))
        for problem in [
            "Deployment handoff-api container api: sets REDIS_MASTER, which the service does not read",
            "Deployment handoff-api: is not given REDIS_SENTINELS and REDIS_MASTER_NAME",
            "pgbouncer.ini: pool_mode must be transaction",
            "pgbouncer.ini: pool_mode = session, but the Kubernetes ConfigMap says transaction",
            "Unknown key 'DrainSeconds' in section [Service]",
        ] {
            #expect(output.contains(problem), "\(problem) not in \(output)")
        }
    }

    /// Runs `infra/check-deploy` on `deploy` with the variables `Configuration` reads.
    private func check(deploy: String) throws -> (ChildProcess.Termination, String) {
        let names = Configuration.variables.map(\.name).joined(separator: ",")
        let child = try ChildProcess(["python3", HandoffBinary.packageRoot() + "/infra/check-deploy",
                                      "--deploy", deploy, "--variables", names])
        let status = try child.wait(timeout: 120)
        return (status, child.output())
    }

    private func edit(_ path: String, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old), "\(old) not in \(path)")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
