import Foundation

/// Collects what the library logs, to check that it never writes a code, an e-mail or a guid.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// The closure to give the library's `log`.
    var sink: @Sendable (String) -> Void {
        { [self] line in lock.lock(); lines.append(line); lock.unlock() }
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
