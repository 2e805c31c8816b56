import Dispatch
import Foundation
import Synchronization

/// A loop on a thread of its own: runs `step` again at once while it reports work, sleeps `idleInterval` when it
/// does not (or as long as the step asks, `.idleFor`), and `errorBackoff` after it throws. Sleeps are in seconds.
/// `stop()` lets the step in progress finish (draining), then returns.
///
/// Blocking I/O belongs in `step` (libpq, hiredis, libcurl): it never runs in Swift `async` code.
public final class RepeatingTask: Sendable {
    /// One iteration: true when it did work (run again at once), false when idle.
    public typealias Step = @Sendable () throws -> Bool

    /// What one iteration did, and so how long the loop sleeps before the next.
    public enum Outcome: Sendable, Equatable {
        /// It did work: run again at once.
        case worked
        /// Nothing to do: sleep `idleInterval`.
        case idle
        /// Nothing to do for now: sleep this many seconds instead of `idleInterval` (e.g. until a lock is polled).
        case idleFor(seconds: Double)
    }

    /// The name of the loop's thread.
    public let name: String
    private let idleInterval: Double
    private let errorBackoff: Double
    private let step: @Sendable (RepeatingTask) throws -> Outcome
    private let onError: @Sendable (any Error) -> Void
    private let state = Mutex((started: false, stopping: false))
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A loop whose step says whether it did work; errors go to `onError` (on the loop's thread).
    public convenience init(name: String, idleInterval: Double, errorBackoff: Double = 1,
                            onError: @escaping @Sendable (any Error) -> Void, step: @escaping Step) {
        self.init(name: name, idleInterval: idleInterval, errorBackoff: errorBackoff, onError: onError) {
            (_: RepeatingTask) throws -> Outcome in try step() ? .worked : .idle
        }
    }

    /// A loop whose step is handed its task, so a long step can check `isStopping` between units of work.
    public convenience init(name: String, idleInterval: Double, errorBackoff: Double = 1,
                            onError: @escaping @Sendable (any Error) -> Void,
                            step: @escaping @Sendable (RepeatingTask) throws -> Bool) {
        self.init(name: name, idleInterval: idleInterval, errorBackoff: errorBackoff, onError: onError) {
            (task: RepeatingTask) throws -> Outcome in try step(task) ? .worked : .idle
        }
    }

    /// A loop whose step says how long to sleep before the next iteration (see `Outcome`).
    public init(name: String, idleInterval: Double, errorBackoff: Double = 1,
                onError: @escaping @Sendable (any Error) -> Void,
                step: @escaping @Sendable (RepeatingTask) throws -> Outcome) {
        self.name = name
        self.idleInterval = idleInterval
        self.errorBackoff = errorBackoff
        self.onError = onError
        self.step = step
    }

    /// Starts the loop; a second call does nothing.
    public func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the loop to stop after its current step and waits until it has.
    public func stop() {
        requestStop()
        join()
    }

    /// Asks the loop to stop after its current step, without waiting (`join()` waits); a second call does nothing.
    public func requestStop() {
        let running = state.withLock { state in
            defer { state.stopping = true }
            return state.started && !state.stopping
        }
        if running { wake.signal() }
    }

    /// Waits until a loop asked to stop has finished its step (returns at once for a loop never started).
    public func join() {
        guard state.withLock({ $0.started }) else { return }
        finished.wait()
        finished.signal()  // A later `join()` returns at once too.
    }

    /// Whether `stop()` or `requestStop()` was called; long steps may check it between units of work.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        while !isStopping {
            do {
                switch try step(self) {
                case .worked: break
                case .idle: sleep(idleInterval)
                case .idleFor(let seconds): sleep(seconds)
                }
            } catch {
                onError(error)
                sleep(errorBackoff)
            }
        }
    }

    /// Sleeps `seconds`, or less when `requestStop()` wakes the loop.
    private func sleep(_ seconds: Double) {
        _ = wake.wait(timeout: .now() + seconds)
    }
}
