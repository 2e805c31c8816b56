import Foundation

/// The handoff report's figures (`GET /s2s/v1/reports/handoff`): of a project's payments, how many were identified
/// within 1 h, 24 h and 7 days, by path; the median time to identification; fingerprint refusals by reason; and the
/// unidentified payments with their verdicts. Pure: every payment comes in judged.
public struct HandoffFunnel: Equatable, Sendable {
    /// The horizons the report counts, by name (`within1h`, `within24h`, `within7d`) and seconds.
    public static let horizons: [(name: String, seconds: TimeInterval)] = [
        ("within1h", 3600), ("within24h", 86400), ("within7d", 604_800),
    ]

    /// One payment of the report with its buyer's verdict.
    public struct Payment: Equatable, Sendable {
        public var paymentId: String
        public var guid: String
        /// When it was paid (the service clock's instant, as the timeline shows it).
        public var paidAt: Date
        public var verdict: HandoffVerdict
        /// The fingerprint refusals of this payment.
        public var refusals: [FingerprintRefusal]

        public init(paymentId: String, guid: String, paidAt: Date, verdict: HandoffVerdict,
                    refusals: [FingerprintRefusal]) {
            self.paymentId = paymentId
            self.guid = guid
            self.paidAt = paidAt
            self.verdict = verdict
            self.refusals = refusals
        }

        /// Seconds from payment to identification (0 when the buyer was identified before), or nil.
        public var secondsToIdentification: Int? {
            guard case .identified(_, let at) = verdict else { return nil }
            return Int(max(0, at.timeIntervalSince(paidAt)).rounded(.down))
        }

        /// The identification path, or nil.
        public var path: IdentificationPath? {
            if case .identified(let path, _) = verdict { return path }
            return nil
        }
    }

    public var payments: Int
    /// Horizon name → payments identified within it.
    public var identified: [String: Int]
    /// Path → horizon name → payments identified by that path within it (every path listed).
    public var byPath: [IdentificationPath: [String: Int]]
    /// The median of the identified payments' seconds to identification (the lower middle for an even count);
    /// nil when none was identified.
    public var medianSecondsToIdentification: Int?
    /// Reason (`FingerprintRefusal.reason`) → refusals recorded for these payments (every reason listed).
    public var fingerprintRefusals: [String: Int]
    /// The payments not identified yet, oldest first (then by payment id).
    public var unidentified: [Payment]
    /// Every identified payment's seconds to identification, ascending (the dashboard's distribution).
    public var secondsToIdentification: [Int]

    public init(_ all: [Payment]) {
        payments = all.count
        var identified = Dictionary(uniqueKeysWithValues: Self.horizons.map { ($0.name, 0) })
        var byPath = Dictionary(uniqueKeysWithValues: IdentificationPath.allCases.map { ($0, identified) })
        var refusals = Dictionary(uniqueKeysWithValues: ["ambiguous", "contradicting", "windowPassed", "disabled"]
            .map { ($0, 0) })
        var seconds: [Int] = []
        for payment in all {
            for refusal in payment.refusals { refusals[refusal.reason, default: 0] += 1 }
            guard let elapsed = payment.secondsToIdentification, let path = payment.path else { continue }
            seconds.append(elapsed)
            for horizon in Self.horizons where TimeInterval(elapsed) <= horizon.seconds {
                identified[horizon.name, default: 0] += 1
                byPath[path, default: [:]][horizon.name, default: 0] += 1
            }
        }
        self.identified = identified
        self.byPath = byPath
        fingerprintRefusals = refusals
        seconds.sort()
        secondsToIdentification = seconds
        medianSecondsToIdentification = seconds.isEmpty ? nil : seconds[(seconds.count - 1) / 2]
        unidentified = all.filter { $0.path == nil }
            .sorted { ($0.paidAt, $0.paymentId) < ($1.paidAt, $1.paymentId) }
    }

    /// `count` of `payments` in basis points (0–10000, rounded down); 0 for no payments.
    public func basisPoints(_ count: Int) -> Int { payments == 0 ? 0 : count * 10000 / payments }

    /// The distribution's buckets: upper bound in seconds (nil: later) and how many identified payments fall in it.
    public var distribution: [(upTo: Int?, count: Int)] {
        let bounds = [60, 600, 3600, 86400, 604_800]
        var counts = Array(repeating: 0, count: bounds.count + 1)
        for elapsed in secondsToIdentification {
            counts[bounds.firstIndex { elapsed <= $0 } ?? bounds.count] += 1
        }
        return bounds.enumerated().map { (upTo: Optional($0.element), count: counts[$0.offset]) }
            + [(upTo: nil, count: counts[bounds.count])]
    }
}
