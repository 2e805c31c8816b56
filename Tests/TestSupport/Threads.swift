import Foundation

/// Runs `body(index)` on `count` new threads at once and waits for all of them.
///
/// For tests that race requests against each other: `DispatchQueue.concurrentPerform` runs only as many at once as
/// there are cores (2 on CI), and libpq, libcurl and the responders block, so each racer needs a thread of its own.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// A meeting point for racing threads: `arrive()` returns once `parties` threads have arrived, or after `timeout`.
///
/// A race whose outcome depends on every racer reaching a step before any goes on (all read a version before any
/// writes) needs this rather than a sleep, which a loaded machine outlasts. The timeout keeps a test that cannot
/// gather every racer (a smaller pool, say) from hanging; it then runs as it would have without the barrier.
public final class ThreadBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private let timeout: TimeInterval
    private var arrived = 0

    public init(parties: Int, timeout: TimeInterval = 10) {
        self.parties = parties
        self.timeout = timeout
    }

    /// Counts this thread in and waits for the others; whether all of them arrived in time.
    @discardableResult
    public func arrive() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return arrived >= parties }
        }
        return true
    }
}
