import Foundation

/// A private Redis for one test that stops, pauses or empties it; the shared one stays untouched.
public final class ScratchRedis: @unchecked Sendable {
    public let port: Int
    public let url: String
    private let folder: String
    private let process: ChildProcess

    /// Starts `redis-server` on a free port and waits until it answers PING.
    public init() throws {
        port = try Shell.freePort()
        url = "redis://127.0.0.1:\(port)"
        folder = try TestEnvironment.scratchFolder() + "/redis-\(port)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        process = try ChildProcess(["redis-server", "--bind", "127.0.0.1", "--port", "\(port)", "--dir", folder,
                                    "--save", "", "--appendonly", "no"])
        try waitUntilReady()
    }

    deinit {
        process.signal(SIGCONT)
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 5)
    }

    /// The server's process id, for SIGSTOP/SIGCONT.
    public var pid: Int32 { process.pid }

    /// Freezes the server (SIGSTOP): it keeps its sockets but answers nothing.
    public func pause() { kill(pid, SIGSTOP) }
    /// Thaws a paused server (SIGCONT).
    public func resume() { kill(pid, SIGCONT) }

    /// Runs `redis-cli` against this server.
    @discardableResult
    public func cli(_ arguments: String...) throws -> String {
        try Shell.run(["redis-cli", "-h", "127.0.0.1", "-p", "\(port)"] + arguments)
    }

    private func waitUntilReady() throws {
        for _ in 0..<100 {
            if (try? cli("PING"))?.contains("PONG") == true { return }
            usleep(50_000)
        }
        throw Shell.Failure(command: ["redis-server"], status: -1, output: "did not answer PING on port \(port)")
    }
}
