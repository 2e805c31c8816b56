import Foundation

/// Progress of a long operator command on standard error: on a terminal a one-line bar redrawn in place with
/// events/s and ETA; otherwise (a log, a pipe) a plain line every few seconds.
///
/// Not thread-safe: call it from the thread doing the work. Standard output stays free for the command's data.
public final class ProgressReporter {
    private let label: String
    private let unit: String
    private let isTerminal: Bool
    private let interval: Duration
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastReport: ContinuousClock.Instant?
    private var drewBar = false

    /// A reporter for `label` (e.g. `replay`) counting `unit`s; `isTerminal` defaults to whether standard error is a
    /// terminal.
    public init(label: String, unit: String = "events", isTerminal: Bool = isatty(2) == 1,
                plainInterval: Duration = .seconds(5)) {
        self.label = label
        self.unit = unit
        self.isTerminal = isTerminal
        self.interval = isTerminal ? .milliseconds(100) : plainInterval
        self.start = clock.now
    }

    /// Reports `done` of `total` events; redraws at most every 100 ms on a terminal, every few seconds otherwise.
    public func update(done: Int, total: Int) {
        let now = clock.now
        if let lastReport, now - lastReport < interval { return }
        lastReport = now
        emit(done: done, total: total, now: now)
    }

    /// Prints the final state and ends the bar's line.
    public func finish(done: Int, total: Int) {
        emit(done: done, total: total, now: clock.now)
        if isTerminal { write("\n") }
    }

    private func emit(done: Int, total: Int, now: ContinuousClock.Instant) {
        let seconds = Self.seconds(now - start)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let remaining = max(0, total - done)
        let eta = rate > 0 ? Self.clockText(Double(remaining) / rate) : "--:--"
        let rateText = "\(Int(rate.rounded())) \(unit)/s"
        if isTerminal {
            let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let percent = Int((fraction * 100).rounded(.down))
            write("\r\u{1B}[K\(label) [\(bar)] \(percent)% \(done)/\(total) \(rateText) ETA \(eta)")
            drewBar = true
        } else {
            write("\(label): \(done)/\(total) \(unit), \(rateText), ETA \(eta)\n")
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func clockText(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
