import Foundation

/// A value behind a lock, for the few pieces of mutable state the library keeps (the facade's client, callbacks).
/// `Mutex` would need iOS 18 / macOS 15; `NSLock` is there from iOS 15 on.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
