import Foundation

/// The `handoff` executable built next to the test bundle, run as a child process by tests.
public enum HandoffBinary {
    /// Path of the built `handoff` (same build folder as the running tests).
    public static func path() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("handoff").path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("handoff").path,
            packageRoot() + "/.build/debug/handoff",
        ]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw Shell.Failure(command: ["handoff"], status: -1, output: "handoff binary not found in \(candidates)")
    }

    /// The package root, from this file's location.
    public static func packageRoot() -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
