import API
import Foundation
import HTTPServer
import Telemetry
import Testing

/// The stages of the command path are timed where requests really go (issue 17 §2): a payment and a resolve through
/// the edge add samples to the process's stage histograms, which `/metrics` serves.
@Suite struct StageTimingPathTests {
    /// The count of `stage` in the process-wide histograms (0 when never recorded).
    static func count(_ stage: StageTimings.Stage) -> Int {
        let prefix = #"handoff_stage_duration_seconds_count{stage="\#(stage.rawValue)"} "#
        let line = StageTimings.shared.render().split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test func aPaymentAndAResolveAreTimedInTheirLaneAndTheirLookup() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try ResolveTests.responder(fixture)
        let before = StageTimings.Stage.allCases.map(Self.count)
        let paid = try ResolveTests.pay(api, key: tenant.key)
        #expect(ResolveTests.resolve(api, paid.code).status == 200)
        let after = StageTimings.Stage.allCases.map(Self.count)
        let grew = Dictionary(uniqueKeysWithValues: zip(StageTimings.Stage.allCases, zip(before, after)).map {
            ($0.0, $0.1.1 - $0.1.0)
        })
        // Other suites run commands in this process at the same time: counts only grow, by at least ours.
        #expect(grew[.commitQueue]! >= 2 && grew[.commitBatch]! >= 2, "\(grew)")
        #expect(grew[.laneLookup]! >= 1, "the resolve finds its org by the code's hash: \(grew)")
        #expect(grew[.redis]! >= 1, "the resolve's limit is one Redis round trip: \(grew)")
    }
}
