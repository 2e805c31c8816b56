import Foundation

/// Why a recorded fingerprint did not answer a probe from its IP (`POST /public/handoff/resolve-by-fingerprint`).
///
/// The device still gets the uniform 404; the reason is recorded as a `FingerprintRefused` fact so the buyer's
/// timeline can say why the app did not learn its guid. Only names travel, never the attributes' values.
public enum FingerprintRefusal: Hashable, Sendable {
    /// The fingerprint qualified, but so did one of another buyer, and the language did not tell them apart.
    case ambiguous
    /// A platform, screen or time zone known on both sides differs (`platform`, `screen` or `timezone`).
    case contradicting(attribute: String)
    /// Nothing contradicts, but the payment is older than the IP window (30 min) and no exact match was possible.
    case windowPassed
    /// The project has fingerprinting off.
    case disabled

    /// The stored `reason`: `ambiguous`, `contradicting`, `windowPassed` or `disabled`.
    public var reason: String {
        switch self {
        case .ambiguous: "ambiguous"
        case .contradicting: "contradicting"
        case .windowPassed: "windowPassed"
        case .disabled: "disabled"
        }
    }

    /// The contradicting attribute's name; nil for the other reasons.
    public var attribute: String? {
        if case .contradicting(let attribute) = self { return attribute }
        return nil
    }

    /// The refusal a stored `reason` and `attribute` name; nil for an unknown reason.
    public init?(reason: String, attribute: String?) {
        switch reason {
        case "ambiguous": self = .ambiguous
        case "contradicting": self = .contradicting(attribute: attribute ?? "unknown")
        case "windowPassed": self = .windowPassed
        case "disabled": self = .disabled
        default: return nil
        }
    }
}

extension FingerprintMatch {
    /// Every candidate that did not answer `probe` at `now` with its reason, given the match's `outcome`: nothing for
    /// a match (the other candidates were not this device's buyer's to lose); for `ambiguous`, every qualifying
    /// candidate is `ambiguous`; every candidate that did not qualify is `contradicting` (the first differing
    /// attribute, in the order platform, screen, time zone) or `windowPassed`.
    public static func refusals(_ probe: Probe, among candidates: [Candidate], now: Date,
                                outcome: Outcome) -> [(Candidate, FingerprintRefusal)] {
        if case .matched = outcome { return [] }
        return candidates.compactMap { candidate in
            guard candidate.ipHash == probe.ipHash else { return nil }
            if let attribute = contradiction(probe, candidate) {
                return (candidate, .contradicting(attribute: attribute))
            }
            if method(probe, candidate, now: now) != nil { return (candidate, .ambiguous) }
            return (candidate, .windowPassed)
        }
    }

    /// The first attribute known on both sides that differs, or nil.
    static func contradiction(_ probe: Probe, _ candidate: Candidate) -> String? {
        if let platform = candidate.platform, platform != probe.platform { return "platform" }
        if let screen = candidate.screen, screen != probe.screen { return "screen" }
        if let zone = candidate.timezone, let probeZone = probe.timezone, zone != probeZone { return "timezone" }
        return nil
    }
}
