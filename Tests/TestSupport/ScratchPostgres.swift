import Foundation

/// A private Postgres cluster for one test that stops and restarts it; the shared one stays untouched.
///
/// initdb takes a second or two, so use it only where a test must disturb the server itself.
public final class ScratchPostgres: @unchecked Sendable {
    public let port: Int
    /// `postgresql://postgres@127.0.0.1:PORT/postgres` (trust authentication on loopback).
    public let url: String
    private let dataFolder: String
    private let bin: String

    /// Creates a cluster under the test scratch folder and starts it.
    public init() throws {
        port = try Shell.freePort()
        url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
        bin = try TestEnvironment.postgresBin()
        let root = try TestEnvironment.scratchFolder() + "/postgres-\(port)"
        dataFolder = root + "/data"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let user = try TestEnvironment.postgresOSUser()
        if getuid() == 0 { try Shell.run(["chown", user, root]) }
        try Shell.runAsPostgresUser([bin + "/initdb", "-D", dataFolder, "-U", "postgres", "--auth=trust",
                                     "-E", "UTF8", "--locale=C.UTF-8"])
        let settings = "listen_addresses = '127.0.0.1'\nport = \(port)\n"
            + "unix_socket_directories = '\(root)'\nfsync = off\n"
        try Shell.runAsPostgresUser(["sh", "-c", "printf \"%s\" \"$0\" >> \"$1\"", settings,
                                     dataFolder + "/postgresql.conf"])
        try start()
    }

    deinit { try? stop() }

    /// Starts the server and waits until it accepts connections.
    public func start() throws {
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-l", dataFolder + "/server.log",
                                     "-w", "-t", "60", "start"])
    }

    /// Stops the server as a crash would (immediate shutdown: no checkpoint, nothing more sent to standbys).
    public func crash() throws {
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server (fast shutdown: open connections are cut).
    public func stop() throws {
        try Shell.runAsPostgresUser([bin + "/pg_ctl", "-D", dataFolder, "-m", "fast", "-w", "stop"])
    }
}
