import Foundation

/// The decider of `POST /public/handoff/fingerprint`: whether a fingerprint sent by the post-payment page is recorded.
///
/// The shell reads the project's setting, the page's code, the payment instant, whether the client IP gives a lookup
/// hash, and whether the payment's fingerprint was already matched, then passes the service clock as `now`. The page
/// gets the same answer whatever this decides. A recorded fingerprint lives until `paidAt +
/// FingerprintMatch.exactWindow`; a capture from that instant on is too late, since it would expire as it is kept.
public enum FingerprintCapture {
    /// What the shell read for one capture.
    public struct State: Sendable, Equatable {
        /// The project's `fingerprint` setting.
        public var fingerprintingOn: Bool
        /// Whether the page's handoff code is still good for the payment (known, not redeemed, not expired).
        public var codeUsable: Bool
        /// When the payment was recorded.
        public var paidAt: Date
        /// Whether the client IP yields a lookup hash.
        public var ipUsable: Bool
        /// Whether the payment's fingerprint was already matched (spent).
        public var alreadyMatched: Bool

        public init(fingerprintingOn: Bool, codeUsable: Bool, paidAt: Date, ipUsable: Bool, alreadyMatched: Bool) {
            self.fingerprintingOn = fingerprintingOn
            self.codeUsable = codeUsable
            self.paidAt = paidAt
            self.ipUsable = ipUsable
            self.alreadyMatched = alreadyMatched
        }
    }

    /// Why nothing is recorded.
    public enum Skip: Sendable, Equatable {
        case fingerprintingOff
        case codeNotUsable
        case tooLate
        case unusableIP
        case alreadyMatched
    }

    /// The outcome of a capture.
    public enum Decision: Sendable, Equatable {
        /// Record `FingerprintRecorded`, live until this instant.
        case record(expiresAt: Date)
        /// Record nothing.
        case skip(Skip)
    }

    /// Decides the capture read as `state` at `now`.
    ///
    /// In order: fingerprinting off, an unusable code, `now >= paidAt + FingerprintMatch.exactWindow`, an IP without
    /// a lookup hash, an already matched fingerprint; else record until `paidAt + FingerprintMatch.exactWindow`.
    public static func decide(_ state: State, now: Date) -> Decision {
        let expiresAt = state.paidAt.addingTimeInterval(FingerprintMatch.exactWindow)
        guard state.fingerprintingOn else { return .skip(.fingerprintingOff) }
        guard state.codeUsable else { return .skip(.codeNotUsable) }
        guard now < expiresAt else { return .skip(.tooLate) }
        guard state.ipUsable else { return .skip(.unusableIP) }
        guard !state.alreadyMatched else { return .skip(.alreadyMatched) }
        return .record(expiresAt: expiresAt)
    }
}
