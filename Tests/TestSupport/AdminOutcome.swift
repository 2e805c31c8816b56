import Foundation

/// How a `handoff admin` run ended and what it wrote (see `ScratchDatabase.admin`).
public struct AdminOutcome: Sendable {
    public var status: ChildProcess.Termination
    public var stdout: String
    public var stderr: String

    public init(status: ChildProcess.Termination, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output as a JSON object; throws `AdminFailed` unless the command exited 0.
    public func json() throws -> [String: Any] {
        guard status == .exited(0) else { throw AdminFailed(outcome: "\(status) \(stderr)") }
        return try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as! [String: Any]
    }
}

/// A fixture step did not get the answer it needs to go on: what it got instead.
public struct AdminFailed: Error {
    public var outcome: String

    public init(outcome: String) { self.outcome = outcome }
}
