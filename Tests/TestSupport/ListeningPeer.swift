import Foundation

/// Starts a peer program (a Python stand-in under Tests/Peers) on a free port and waits until it prints "listening".
///
/// The port is picked free and then bound by the child, so in the full parallel suite another test can take it in
/// between: the child then fails with "Address already in use" and is started again on a new port, up to five times
/// (seen in CI for play_api.py; `Shell.freePort` now picks below the ephemeral range, which makes it rare).
public enum ListeningPeer {
    /// The port and the running child. `arguments` gets the port and returns the whole command line. With `port`
    /// given, the child is started on it once, without picking another.
    public static func start(_ name: String, port fixedPort: Int? = nil, timeout: Double = 30,
                             arguments: (Int) throws -> [String]) throws -> (port: Int, process: ChildProcess)
    {
        var attempt = 0
        while true {
            attempt += 1
            let port = try fixedPort ?? Shell.freePort()
            let process = try ChildProcess(try arguments(port))
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let output = process.output()
                if output.contains("listening") { return (port, process) }
                if output.localizedCaseInsensitiveContains("address already in use") { break }
                guard Date() < deadline else {
                    throw Shell.Failure(command: [name], status: -1,
                                        output: "did not start within \(Int(timeout)) s: " + output)
                }
                usleep(20_000)
            }
            _ = try? process.wait(timeout: 5)
            guard attempt < 5, fixedPort == nil else {
                throw Shell.Failure(command: [name], status: -1, output: "address already in use (attempt \(attempt)): "
                                    + process.output())
            }
        }
    }
}
