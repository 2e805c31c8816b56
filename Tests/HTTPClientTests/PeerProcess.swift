import Foundation

/// A Python peer (HTTP receiver or SMTP sink) running for one test; terminated in `deinit`.
final class PeerProcess: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository root, found from this file's path (Tests/HTTPClientTests/PeerProcess.swift).
    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private let process = Process()

    /// Runs `/usr/bin/python3 <repository root>/<script> arguments…` and waits until it prints "listening".
    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.repositoryRoot + "/" + script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("listening") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                let status = process.terminationStatus
                throw StartFailure(description: "\(script) exited before listening (status \(status))")
            }
            printed += chunk
        }
    }

    /// SIGTERM, then SIGKILL if the peer has not exited within two seconds.
    deinit {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
