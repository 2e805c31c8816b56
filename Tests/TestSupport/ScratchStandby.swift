import Foundation

/// A hot standby of a `ScratchPostgres`, made with `pg_basebackup -R` and streaming from it; it can be promoted.
///
/// Takes a few seconds (a base backup of a fresh cluster); use it only where a test needs a real replica.
public final class ScratchStandby: @unchecked Sendable {
    public let port: Int
    /// `postgresql://postgres@127.0.0.1:PORT/postgres` (trust authentication on loopback).
    public let url: String
    private let dataFolder: String
    private let bin: String

    /// Copies `primary` (listening on `primaryPort`) and starts the copy as a streaming standby; it applies what it
    /// receives `applyDelayMilliseconds` late (`recovery_min_apply_delay`), to stand for a lagging replica.
    public init(primaryPort: Int, applyDelayMilliseconds: Int = 0) throws {
        port = try Shell.freePort()
        url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
        bin = try TestEnvironment.postgresBin()
        let root = try TestEnvironment.scratchFolder() + "/standby-\(port)"
        dataFolder = root + "/data"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let user = try TestEnvironment.postgresOSUser()
        if getuid() == 0 { try Shell.run(["chown", user, root]) }
        try Shell.runAsPostgresUser([bin + "/pg_basebackup", "-h", "127.0.0.1", "-p", "\(primaryPort)", "-U",
                                     "postgres", "-D", dataFolder, "-R", "-X", "stream", "-c", "fast"])
        let settings = "\nport = \(port)\nunix_socket_directories = '\(root)'\nhot_standby_feedback = on\n"
            + "recovery_min_apply_delay = \(applyDelayMilliseconds)\n"
        try Shell.runAsPostgresUser(["sh", "-c", "printf \"%s\" \"$0\" >> \"$1\"", settings,
                                     dataFolder + "/postgresql.conf"])
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-l", dataFolder + "/server.log",
                                     "-w", "-t", "60", "start"])
    }

    deinit {
        _ = try? Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-m", "immediate", "-w", "stop"])
    }

    /// Stops the standby (immediate shutdown).
    public func stop() throws {
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-m", "immediate", "-w", "stop"])
    }

    /// Promotes the standby to a primary and waits until it accepts writes.
    public func promote() throws {
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-w", "promote"])
    }
}
