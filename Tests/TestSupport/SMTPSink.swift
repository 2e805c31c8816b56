import Foundation

/// infra/smtp-sink.py on a free port for one test, storing every mail under a scratch folder; stopped in `deinit`.
public final class SMTPSink: @unchecked Sendable {
    public let url: String
    public let folder: String
    private let process: ChildProcess

    /// Starts the sink on `port` (default: a free one) and waits until it prints "listening" (up to 20 s).
    public init(port: Int? = nil) throws {
        let port = try port ?? Shell.freePort()
        url = "smtp://127.0.0.1:\(port)"
        folder = try TestEnvironment.scratchFolder() + "/smtp-sink-\(port)-\(UInt32.random(in: 0...UInt32.max))"
        process = try ChildProcess(["/usr/bin/python3", HandoffBinary.packageRoot() + "/infra/smtp-sink.py",
                                    "--host", "127.0.0.1", "--port", "\(port)", "--dir", folder, "--exit-with-parent"])
        for _ in 0..<400 {
            if process.output().contains("listening") { return }
            usleep(50_000)
        }
        throw Shell.Failure(command: ["smtp-sink.py"], status: -1, output: process.output())
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 5)
    }

    /// The raw messages received so far, oldest first.
    public func messages() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted()
        return names.compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
    }
}
