import Foundation
import TestSupport

/// A Python peer (HTTP receiver or SMTP sink) running for one test; killed when released (`ChildProcess`).
///
/// Started with TestSupport's `ChildProcess` (posix_spawn, a clean signal mask): Foundation's `Process` was seen to
/// hang under parallel tests.
final class PeerProcess: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository root, found from this file's path (Tests/HTTPClientTests/PeerProcess.swift).
    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private let child: ChildProcess

    /// Runs `/usr/bin/python3 <repository root>/<script> arguments…` and waits until it prints "listening".
    init(script: String, arguments: [String]) throws {
        child = try ChildProcess(["/usr/bin/python3", Self.repositoryRoot + "/" + script] + arguments)
        let deadline = Date().addingTimeInterval(30)
        while !child.output().contains("listening") {
            guard Date() < deadline else {
                throw StartFailure(description: "\(script) did not print \"listening\" within 30 s: \(child.output())")
            }
            usleep(20_000)
        }
    }
}
