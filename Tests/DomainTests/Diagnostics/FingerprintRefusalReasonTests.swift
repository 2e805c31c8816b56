import Domain
import Foundation
import Testing

/// `FingerprintMatch.refusals`: why each live fingerprint from the probe's IP did not answer it.
@Suite struct FingerprintRefusalReasonTests {
    static let paidAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let screen = try! ScreenSize.parse("393x852").get()
    static let probe = FingerprintMatch.Probe(ipHash: "ip", platform: .ios, screen: screen, timezone: "Europe/Berlin")

    static func candidate(_ id: String, guid: String = "a", ip: String = "ip", platform: DevicePlatform? = .ios,
                          screen: String = "393x852", timezone: String? = "Europe/Berlin")
        -> FingerprintMatch.Candidate
    {
        FingerprintMatch.Candidate(id: id, guid: guid, ipHash: ip, platform: platform,
                                   screen: try! ScreenSize.parse(screen).get(), timezone: timezone, language: nil,
                                   paidAt: paidAt)
    }

    func refusals(_ candidates: [FingerprintMatch.Candidate], probe: FingerprintMatch.Probe = probe,
                  after seconds: Double = 60) -> [String: FingerprintRefusal] {
        let now = Self.paidAt.addingTimeInterval(seconds)
        let outcome = FingerprintMatch.match(probe, among: candidates, now: now)
        return Dictionary(uniqueKeysWithValues: FingerprintMatch.refusals(probe, among: candidates, now: now,
                                                                          outcome: outcome).map { ($0.0.id, $0.1) })
    }

    @Test func aMatchRefusesNothing() {
        #expect(refusals([Self.candidate("p1"), Self.candidate("p2", screen: "100x200")]).isEmpty)
    }

    @Test func eachContradictingAttributeIsNamed() {
        #expect(refusals([Self.candidate("p1", platform: .android)]) == ["p1": .contradicting(attribute: "platform")])
        #expect(refusals([Self.candidate("p1", screen: "100x200")]) == ["p1": .contradicting(attribute: "screen")])
        #expect(refusals([Self.candidate("p1", timezone: "Asia/Tokyo")])
            == ["p1": .contradicting(attribute: "timezone")])
    }

    @Test func anIPOnlyCandidatePastThirtyMinutesHasItsWindowPassed() {
        var probe = Self.probe
        probe.timezone = nil
        #expect(refusals([Self.candidate("p1")], probe: probe, after: 1801) == ["p1": .windowPassed])
    }

    @Test func twoBuyersFromOneIPAreBothAmbiguousAndOtherIPsAreNotNamed() {
        let candidates = [Self.candidate("p1", guid: "a"), Self.candidate("p2", guid: "b"),
                          Self.candidate("p3", guid: "c", ip: "other")]
        #expect(refusals(candidates) == ["p1": .ambiguous, "p2": .ambiguous])
    }

    @Test func aStoredReasonReadsBack() {
        for refusal in [FingerprintRefusal.ambiguous, .contradicting(attribute: "screen"), .windowPassed, .disabled] {
            #expect(FingerprintRefusal(reason: refusal.reason, attribute: refusal.attribute) == refusal)
        }
        #expect(FingerprintRefusal(reason: "other", attribute: nil) == nil)
    }
}
