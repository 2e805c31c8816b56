import Foundation

/// The matching rules of `POST /public/handoff/resolve-by-fingerprint`: which recorded fingerprint, if any, an app's
/// probe belongs to. Pure: the clock comes in as `now`.
///
/// - Exact (`fingerprint`): same IP, platform, screen (orientation-free) and time zone, at most 2 h after the
///   payment. A probe without a time zone cannot match exactly.
/// - IP (`ip`): same IP and no contradicting attribute, at most 30 min after the payment.
/// - Contradicting: a platform, screen or time zone that both sides know and that differ. Such a candidate never
///   matches, whatever its IP.
/// - Language never contradicts (a browser's and an app's language often differ); when several candidates qualify,
///   those whose primary language subtag equals the probe's are kept, if any.
/// - Qualifying candidates of two or more buyers (guids) after that → `ambiguous` (the edge answers 404). Several
///   candidates of one buyer are one answer: the exact one before an IP one, then the latest payment.
/// - Both windows include their edge (exactly 2 h matches, 2 h + 1 ms does not). A payment time after `now` (clock
///   skew) counts as age 0.
public enum FingerprintMatch {
    /// How long after the payment an exact match is possible.
    public static let exactWindow: TimeInterval = 2 * 60 * 60
    /// How long after the payment an IP match is possible.
    public static let ipWindow: TimeInterval = 30 * 60

    /// What the app sends (plus the server's view of its IP as a keyed hash).
    public struct Probe: Hashable, Sendable {
        public var ipHash: String
        public var platform: DevicePlatform
        public var screen: ScreenSize
        public var timezone: String?
        public var language: String?

        public init(ipHash: String, platform: DevicePlatform, screen: ScreenSize, timezone: String? = nil,
                    language: String? = nil) {
            self.ipHash = ipHash
            self.platform = platform
            self.screen = screen
            self.timezone = timezone
            self.language = language
        }
    }

    /// A live fingerprint recorded by the post-payment page; nil attributes are unknown (never contradicting).
    public struct Candidate: Hashable, Sendable {
        /// Identifies the fingerprint (its payment id).
        public var id: String
        public var guid: String
        public var ipHash: String
        public var platform: DevicePlatform?
        public var screen: ScreenSize?
        public var timezone: String?
        public var language: String?
        /// When the payment was recorded.
        public var paidAt: Date

        public init(id: String, guid: String, ipHash: String, platform: DevicePlatform?, screen: ScreenSize?,
                    timezone: String?, language: String?, paidAt: Date) {
            self.id = id
            self.guid = guid
            self.ipHash = ipHash
            self.platform = platform
            self.screen = screen
            self.timezone = timezone
            self.language = language
            self.paidAt = paidAt
        }
    }

    /// How a match was made; the public `matchMethod`.
    public enum Method: String, Hashable, Sendable {
        case fingerprint
        case ip
    }

    /// The verdict.
    public enum Outcome: Hashable, Sendable {
        /// Exactly one buyer: spend candidate `id`, answer `guid`.
        case matched(id: String, guid: String, method: Method)
        /// Nothing qualifies.
        case none
        /// Candidates of two or more buyers qualify and the language does not tell them apart.
        case ambiguous
    }

    /// Judges `probe` against `candidates` at `now`; see the type's rules.
    public static func match(_ probe: Probe, among candidates: [Candidate], now: Date) -> Outcome {
        var qualified = candidates.compactMap { candidate in
            method(probe, candidate, now: now).map { (candidate, $0) }
        }
        guard !qualified.isEmpty else { return .none }
        if let language = probe.language.map(FingerprintFields.primaryLanguage) {
            let sameLanguage = qualified.filter { $0.0.language.map(FingerprintFields.primaryLanguage) == language }
            if !sameLanguage.isEmpty { qualified = sameLanguage }
        }
        guard Set(qualified.map(\.0.guid)).count == 1 else { return .ambiguous }
        let best = qualified.max { lhs, rhs in
            if lhs.1 != rhs.1 { return lhs.1 == .ip }
            if lhs.0.paidAt != rhs.0.paidAt { return lhs.0.paidAt < rhs.0.paidAt }
            return lhs.0.id > rhs.0.id
        }!
        return .matched(id: best.0.id, guid: best.0.guid, method: best.1)
    }

    /// How `candidate` qualifies for `probe` at `now`, or nil.
    static func method(_ probe: Probe, _ candidate: Candidate, now: Date) -> Method? {
        guard candidate.ipHash == probe.ipHash else { return nil }
        if let platform = candidate.platform, platform != probe.platform { return nil }
        if let screen = candidate.screen, screen != probe.screen { return nil }
        if let zone = candidate.timezone, let probeZone = probe.timezone, zone != probeZone { return nil }
        let age = max(0, now.timeIntervalSince(candidate.paidAt))
        if probe.timezone != nil, candidate.timezone == probe.timezone, candidate.platform == probe.platform,
           candidate.screen == probe.screen, age <= exactWindow {
            return .fingerprint
        }
        return age <= ipWindow ? .ip : nil
    }
}
