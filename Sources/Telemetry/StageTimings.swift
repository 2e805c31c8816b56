import Foundation
import Synchronization

/// Where a request's time goes inside the process: one latency histogram per stage of the command path (waiting in a
/// group-commit lane, opening a transaction, a batch's run to its commit, a Redis round trip), rendered with the other
/// metrics as `handoff_stage_duration_seconds{stage=…}` (docs/performance.md "Tail latency").
///
/// Process-wide (`shared`), because the stages live in modules that know nothing of the HTTP edge's `Metrics`; a
/// sample costs one uncontended lock of its stage.
public final class StageTimings: Sendable {
    /// A stage of the command path.
    public enum Stage: String, CaseIterable, Sendable {
        /// A command's wait in its org's group-commit lane until a batch takes it.
        case commitQueue = "commit_queue"
        /// A batch's run on its connection, through its COMMIT (each command of the batch counts it once).
        case commitBatch = "commit_batch"
        /// Getting a pooled connection and opening a transaction (BEGIN, and the scope for a command run alone).
        case transactionOpen = "transaction_open"
        /// The autocommitted lookup that finds the org (the lane) of a command that carries only a credential.
        case laneLookup = "lane_lookup"
        /// One rate-limit round trip to Redis.
        case redis
    }

    /// The instance the process records into.
    public static let shared = StageTimings()

    private struct Histogram {
        var buckets: [UInt64] = Array(repeating: 0, count: Metrics.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    private final class LockedHistogram: Sendable {
        let state = Mutex(Histogram())
    }

    private let histograms: [LockedHistogram] = Stage.allCases.map { _ in LockedHistogram() }

    public init() {}

    /// A monotonic instant in seconds, for measuring a stage.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Records `seconds` spent in `stage`.
    public func record(_ stage: Stage, seconds: Double) {
        let index = Stage.allCases.firstIndex(of: stage)!
        histograms[index].state.withLock { histogram in
            if let bucket = Metrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                histogram.buckets[bucket] += 1
            }
            histogram.count += 1
            histogram.sum += seconds
        }
    }

    /// Records the time from `start` (a `now()`) until now in `stage`.
    public func record(_ stage: Stage, since start: Double) {
        record(stage, seconds: Self.now() - start)
    }

    /// The stages' histograms in the Prometheus text format; stages never recorded are left out.
    public func render() -> String {
        var out = "# HELP handoff_stage_duration_seconds Time spent in one stage of the command path.\n"
        out += "# TYPE handoff_stage_duration_seconds histogram\n"
        for (index, stage) in Stage.allCases.enumerated() {
            let histogram = histograms[index].state.withLock { $0 }
            guard histogram.count > 0 else { continue }
            var cumulative: UInt64 = 0
            for (bucket, bound) in Metrics.latencyBuckets.enumerated() {
                cumulative += histogram.buckets[bucket]
                let labels = Metrics.labels([("stage", stage.rawValue), ("le", Metrics.number(bound))])
                out += "handoff_stage_duration_seconds_bucket\(labels) \(cumulative)\n"
            }
            let infinity = Metrics.labels([("stage", stage.rawValue), ("le", "+Inf")])
            out += "handoff_stage_duration_seconds_bucket\(infinity) \(histogram.count)\n"
            let stageOnly = Metrics.labels([("stage", stage.rawValue)])
            out += "handoff_stage_duration_seconds_sum\(stageOnly) \(Metrics.number(histogram.sum))\n"
            out += "handoff_stage_duration_seconds_count\(stageOnly) \(histogram.count)\n"
        }
        return out
    }
}
