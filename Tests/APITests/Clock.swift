import Foundation

/// A clock tests move forward.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = PaymentTests.now
    func now() -> Date { lock.lock(); defer { lock.unlock() }; return current }
    func advance(_ seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
}
