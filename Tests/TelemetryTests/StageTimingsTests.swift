import Foundation
import Telemetry
import Testing

/// The command path's stage histograms (issue 17 §2): buckets, sum and count per stage, only stages seen, and the
/// exposition of `Metrics` carrying them.
@Suite struct StageTimingsTests {
    @Test func samplesLandInTheirBucketsAndOnlyRecordedStagesAreRendered() {
        let stages = StageTimings()
        stages.record(.commitQueue, seconds: 0.0004)
        stages.record(.commitQueue, seconds: 0.003)
        stages.record(.commitQueue, seconds: 9)
        let text = stages.render()
        #expect(text.contains(#"handoff_stage_duration_seconds_bucket{stage="commit_queue",le="0.0005"} 1"#))
        #expect(text.contains(#"handoff_stage_duration_seconds_bucket{stage="commit_queue",le="0.005"} 2"#))
        #expect(text.contains(#"handoff_stage_duration_seconds_bucket{stage="commit_queue",le="5"} 2"#))
        #expect(text.contains(#"handoff_stage_duration_seconds_bucket{stage="commit_queue",le="+Inf"} 3"#))
        #expect(text.contains(#"handoff_stage_duration_seconds_count{stage="commit_queue"} 3"#))
        #expect(text.contains(#"handoff_stage_duration_seconds_sum{stage="commit_queue"} 9.0034"#))
        #expect(!text.contains("redis"))
        #expect(!text.contains("commit_batch"))
    }

    @Test func aMeasuredStageCountsTheTimeSinceItsStart() throws {
        let stages = StageTimings()
        let start = StageTimings.now()
        usleep(20_000)
        stages.record(.redis, since: start)
        let text = stages.render()
        let sum = try #require(text.split(separator: "\n").first {
            $0.hasPrefix(#"handoff_stage_duration_seconds_sum{stage="redis"}"#)
        })
        let seconds = try #require(Double(sum.split(separator: " ").last ?? ""))
        #expect(seconds >= 0.02 && seconds < 5)
    }

    @Test func theMetricsExpositionIncludesItsStages() {
        let stages = StageTimings()
        stages.record(.transactionOpen, seconds: 0.001)
        let text = Metrics(stages: stages).render()
        #expect(text.contains("# TYPE handoff_stage_duration_seconds histogram"))
        #expect(text.contains(#"handoff_stage_duration_seconds_count{stage="transaction_open"} 1"#))
    }
}
