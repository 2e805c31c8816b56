import Foundation

/// A private Redis for one test that can be restarted empty on the same port (as after a crash without persistence).
public final class RestartableRedis: @unchecked Sendable {
    public let port: Int
    public let url: String
    private var process: ChildProcess
    private let folder: String

    public init() throws {
        port = try Shell.freePort()
        url = "redis://127.0.0.1:\(port)"
        folder = try TestEnvironment.scratchFolder() + "/restartable-redis-\(port)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        process = try Self.start(port: port, folder: folder)
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 5)
    }

    /// Stops the server (nothing saved) and starts a new, empty one on the same port.
    public func restartEmpty() throws {
        process.signal(SIGKILL)
        _ = try process.wait(timeout: 5)
        process = try Self.start(port: port, folder: folder)
    }

    /// Runs `redis-cli` against this server.
    @discardableResult
    public func cli(_ arguments: String...) throws -> String {
        try Shell.run(["redis-cli", "-h", "127.0.0.1", "-p", "\(port)"] + arguments)
    }

    private static func start(port: Int, folder: String) throws -> ChildProcess {
        let process = try ChildProcess(["redis-server", "--bind", "127.0.0.1", "--port", "\(port)", "--dir", folder,
                                        "--save", "", "--appendonly", "no"])
        for _ in 0..<100 {
            if (try? Shell.run(["redis-cli", "-h", "127.0.0.1", "-p", "\(port)", "PING"]))?.contains("PONG") == true {
                return process
            }
            usleep(50_000)
        }
        throw Shell.Failure(command: ["redis-server"], status: -1, output: "did not answer PING on port \(port)")
    }
}
