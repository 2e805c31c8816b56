import Foundation

/// The line at the top of a timeline: whether the app learned the buyer's guid, and if not, the likeliest reason
/// and what to do. Pure: the facts, what the project has turned on and the clock come in.
///
/// A buyer is identified by its first identifying fact: a redeemed code (a recovery code → `recoveryMail`, an
/// install token → `installToken`, else `handoffCode`), a fingerprint match, creation with an `externalId`, or a
/// payment from a store notification. A payment counts as identified at the later of its own time and that fact's
/// (an app that knows the guid sees later payments at once).
public enum HandoffVerdict: Hashable, Sendable {
    case identified(path: IdentificationPath, at: Date)
    case notIdentified(Reason)

    /// What the project has turned on that the reasons depend on.
    public struct ProjectFacts: Hashable, Sendable {
        public var fingerprint: Bool
        /// The project's tracker is Adjust with a universal link without `adj_t` (its install links answer 404).
        public var trackerLinkMissingAdjT: Bool

        public init(fingerprint: Bool, trackerLinkMissingAdjT: Bool) {
            self.fingerprint = fingerprint
            self.trackerLinkMissingAdjT = trackerLinkMissingAdjT
        }
    }

    /// Why a buyer is not identified, likeliest first when several apply.
    public enum Reason: Hashable, Sendable {
        case noPayment
        case fingerprintRefused(FingerprintRefusal)
        case fingerprintingOff
        case codeExpiredUnused
        case recoverySkipped(reason: String)
        case trackerLinkMissingAdjT
        case noFingerprintCaptured
        case openedWithoutFingerprint
        case recoveryNeverRequested(codeValidUntil: Date?)
        case recoveryNotUsed

        /// `<reason> — <what to do>`.
        public var words: String {
            switch self {
            case .noPayment:
                "no payment recorded for this buyer — record the payment with POST /s2s/v1/payments"
            case .fingerprintRefused(let refusal):
                "the app asked by fingerprint and was refused: \(refusal.explanation) — "
                    + "have the buyer enter the code from the post-payment page or restore by e-mail"
            case .fingerprintingOff:
                "fingerprinting is off for the project — turn it on (PATCH /s2s/v1/project {\"fingerprint\":true}) "
                    + "or make sure the app asks for the code"
            case .codeExpiredUnused:
                "the handoff code expired unused — have the buyer request a recovery mail from the app"
            case .recoverySkipped(let reason):
                "the recovery mail was not sent: \(EmailRecovery.Skip(rawValue: reason)?.explanation ?? reason) — "
                    + "check the address the buyer typed, or wait 20 minutes and request again"
            case .trackerLinkMissingAdjT:
                "the project's Adjust link has no adj_t, so the install link answers 404 — add adj_t to trackerLink"
            case .noFingerprintCaptured:
                "the post-payment page never sent a fingerprint (not opened, or JavaScript off) — "
                    + "check that the checkout redirects to postPaymentUrl"
            case .openedWithoutFingerprint:
                "the buyer opened the post-payment page but it sent no fingerprint (JavaScript off or blocked) — "
                    + "have the buyer enter the code shown on the page, or restore by e-mail"
            case .recoveryNeverRequested(let until):
                "no app has redeemed the code or asked by fingerprint"
                    + (until.map { " (the code is valid until \(PaymentFields.text($0)))" } ?? "")
                    + ", and no recovery mail was requested — check that the app asks for the code on first launch"
            case .recoveryNotUsed:
                "a recovery mail was sent but its code was never redeemed — ask the buyer to open the mail's link"
            }
        }
    }

    /// The verdict line: `identified via <path> at <time>` or `not identified yet: <reason> — <what to do>`.
    public var words: String {
        switch self {
        case .identified(let path, let at): "identified via \(path.words) at \(PaymentFields.text(at))"
        case .notIdentified(let reason): "not identified yet: \(reason.words)"
        }
    }

    /// The buyer's first identification in `facts` (any order): its path and instant, or nil.
    public static func identification(_ facts: [DiagnosticFact]) -> (path: IdentificationPath, at: Date)? {
        let recoveryCodes = DiagnosticFact.recoveryCodes(facts)
        let firstPayment = facts.compactMap { fact -> Date? in
            if case .paymentRecorded = fact.kind { return fact.at }
            return nil
        }.min()
        let found = facts.compactMap { fact -> (path: IdentificationPath, at: Date)? in
            switch fact.kind {
            case .codeRedeemed(let hash, let kind):
                if recoveryCodes.contains(hash) { return (.recoveryMail, fact.at) }
                return (kind == "install" ? .installToken : .handoffCode, fact.at)
            case .fingerprintMatched(let method):
                return (method == "ip" ? .fingerprintIp : .fingerprintExact, fact.at)
            case .buyerCreated(true, _):
                return (.externalId, max(fact.at, firstPayment ?? fact.at))
            case .paymentRecorded(_, _, _, .some):
                return (.storeNotification, fact.at)
            default:
                return nil
            }
        }
        return found.min { $0.at < $1.at }
    }

    /// Judges the buyer of `facts` (for a payment timeline, the buyer's facts with that payment's and the
    /// buyer-wide ones) given the project's `project` facts.
    public static func judge(_ facts: [DiagnosticFact], project: ProjectFacts, now: Date) -> HandoffVerdict {
        let payments = facts.filter { if case .paymentRecorded = $0.kind { true } else { false } }
        guard let paidAt = payments.map(\.at).min() else { return .notIdentified(.noPayment) }
        if let found = identification(facts) { return .identified(path: found.path, at: max(found.at, paidAt)) }
        return .notIdentified(reason(facts, project: project, now: now))
    }

    /// The likeliest reason an unidentified buyer of `facts` is not identified.
    static func reason(_ facts: [DiagnosticFact], project: ProjectFacts, now: Date) -> Reason {
        let newestFirst = facts.sorted { $0.at > $1.at }
        if let refusal = newestFirst.lazy.compactMap({ fact -> FingerprintRefusal? in
            if case .fingerprintRefused(let refusal) = fact.kind { return refusal }
            return nil
        }).first {
            return .fingerprintRefused(refusal)
        }
        // A mail that went out explains more than a later request skipped for coming too soon after it.
        if facts.contains(where: { $0.kind == .recoveryMailSent }) { return .recoveryNotUsed }
        if let skip = newestFirst.lazy.compactMap({ fact -> String? in
            if case .recoveryMailSkipped(let reason) = fact.kind { return reason }
            return nil
        }).first {
            return .recoverySkipped(reason: skip)
        }
        let handoffExpiries = facts.compactMap { fact -> Date? in
            if case .codeMinted(_, "handoff", _, let expiresAt) = fact.kind { return expiresAt }
            return nil
        }
        let refusedExpired = facts.contains { $0.kind == .codeRefused(kind: "handoff", reason: "expired") }
        if refusedExpired || (!handoffExpiries.isEmpty && handoffExpiries.allSatisfy { $0 <= now }) {
            return .codeExpiredUnused
        }
        if project.trackerLinkMissingAdjT { return .trackerLinkMissingAdjT }
        if !project.fingerprint { return .fingerprintingOff }
        let captured = facts.contains { if case .fingerprintCaptured = $0.kind { true } else { false } }
        // Openings are recorded only since they were added, so "not opened" stays "not opened, or JavaScript off".
        let opened = facts.contains { if case .pageOpened = $0.kind { true } else { false } }
        if !captured && !handoffExpiries.isEmpty { return opened ? .openedWithoutFingerprint : .noFingerprintCaptured }
        return .recoveryNeverRequested(codeValidUntil: handoffExpiries.max())
    }
}
