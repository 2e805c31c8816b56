import Foundation

/// SIGTERM and SIGINT, blocked in every thread and awaited with `sigwait` on the main thread (STYLE §13).
public enum TerminationSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread; threads started afterwards inherit the mask.
    /// Call first thing in `main`, before any thread starts.
    public static func block() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until SIGTERM or SIGINT arrives and returns its name.
    public static func wait() -> String {
        var set = signalSet()
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received == SIGTERM ? "SIGTERM" : "SIGINT"
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
