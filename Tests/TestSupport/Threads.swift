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
