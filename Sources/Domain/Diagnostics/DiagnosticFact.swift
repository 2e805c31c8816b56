import Foundation

/// One event of a buyer's history as diagnostics reads it: the facts that explain whether and how an app learned the
/// buyer's guid. Built from an event's type and data only (`init?(eventType:data:at:)`), so it needs no key: nothing
/// personal is read, and codes appear only as their lookup hashes.
public struct DiagnosticFact: Hashable, Sendable {
    /// When it happened: the payload's own instant (`redeemedAt`, `matchedAt`, a store's `expiredAt`, …; a code's
    /// expiry minus its lifetime; the service clock) when it has one, else the log's `recorded_at`. `onServiceClock`
    /// moves a payment to its codes' mint instant.
    public var at: Date
    /// The payment the fact belongs to; nil for a buyer-wide fact (created, e-mail verified, recovery request).
    public var paymentId: String?
    public var kind: Kind

    public init(at: Date, paymentId: String?, kind: Kind) {
        self.at = at
        self.paymentId = paymentId
        self.kind = kind
    }

    /// What happened.
    public enum Kind: Hashable, Sendable {
        case buyerCreated(withExternalId: Bool, withEmail: Bool)
        /// `source` nil for a payment recorded over S2S, else the store it came from.
        case paymentRecorded(productId: String, amount: Int, currency: String, source: String?)
        /// `kind` `handoff`/`install`; `source` `payment`/`recovery`.
        case codeMinted(codeHash: String, kind: String, source: String, expiresAt: Date?)
        /// The page's script sent a fingerprint; `attributes` names what it carried (never the values).
        case pageOpened(platform: String?, language: String?)
        case fingerprintCaptured(platform: String?, language: String?, attributes: [String])
        case codeRedeemed(codeHash: String, kind: String)
        case codeRefused(kind: String, reason: String)
        case fingerprintMatched(method: String)
        case fingerprintRefused(FingerprintRefusal)
        case emailVerified
        case recoveryRequested
        case recoveryMailSent
        /// `reason` is `EmailRecovery.Skip`'s raw value.
        case recoveryMailSkipped(reason: String)
        case paymentRefunded
        case paymentRenewed(expiresAt: Date?)
        case paymentExpired
        case paymentTransferred(toOtherBuyer: Bool)
        case buyerErased
    }

    /// The fact an event of `eventType` with `data`, recorded at `at`, states for the buyer `guid`; nil for an event
    /// diagnostics does not show.
    public init?(eventType: String, data: EventJSON, at: Date, guid: String) {
        let text = { (name: String) in data[name]?.stringValue }
        let date = { (name: String) -> Date? in
            guard let value = text(name), case .success(let parsed) = PaymentFields.rfc3339(value) else { return nil }
            return parsed
        }
        let kind: Kind
        switch eventType {
        case BuyerCreated.eventType:
            kind = .buyerCreated(withExternalId: text("externalId") != nil,
                                 withEmail: text("emailRef") != nil || text("emailHash") != nil)
        case PaymentRecorded.eventType:
            kind = .paymentRecorded(productId: text("productId") ?? "", amount: Int(data["amount"]?.integerValue ?? 0),
                                    currency: text("currency") ?? "", source: text("source"))
        case HandoffCodeMinted.eventType:
            kind = .codeMinted(codeHash: text("codeHash") ?? "", kind: text("kind") ?? "handoff",
                               source: text("source") ?? "payment", expiresAt: date("expiresAt"))
        case PostPaymentPageOpened.eventType:
            kind = .pageOpened(platform: text("platform"), language: text("language"))
        case FingerprintRecorded.eventType:
            let names = ["platform", "screen", "timezone", "language"].filter { text($0) != nil } + ["ip"]
            kind = .fingerprintCaptured(platform: text("platform"), language: text("language"), attributes: names)
        case HandoffCodeRedeemed.eventType:
            kind = .codeRedeemed(codeHash: text("codeHash") ?? "", kind: text("kind") ?? "handoff")
        case HandoffCodeRefused.eventType:
            kind = .codeRefused(kind: text("kind") ?? "handoff", reason: text("reason") ?? "")
        case FingerprintMatched.eventType:
            kind = .fingerprintMatched(method: text("matchMethod") ?? "")
        case FingerprintRefused.eventType:
            guard let refusal = FingerprintRefusal(reason: text("reason") ?? "", attribute: text("attribute"))
            else { return nil }
            kind = .fingerprintRefused(refusal)
        case EmailVerified.eventType: kind = .emailVerified
        case EmailRecoveryRequested.eventType: kind = .recoveryRequested
        case RecoveryMailSent.eventType: kind = .recoveryMailSent
        case RecoveryMailSkipped.eventType: kind = .recoveryMailSkipped(reason: text("reason") ?? "")
        case PaymentRefunded.eventType: kind = .paymentRefunded
        case PaymentRenewed.eventType: kind = .paymentRenewed(expiresAt: date("expiresAt"))
        case PaymentExpired.eventType: kind = .paymentExpired
        case PaymentTransferred.eventType: kind = .paymentTransferred(toOtherBuyer: text("toGuid") != guid)
        case BuyerErased.eventType: kind = .buyerErased
        default: return nil
        }
        // The payload's own instant (service clock) when it has one, so facts compare with code expiries.
        var own = ["redeemedAt", "matchedAt", "refusedAt", "recordedAt", "skippedAt", "refundedAt", "expiredAt",
                   "openedAt"].lazy.compactMap(date).first
        // A code is minted at its expiry minus its lifetime (the service clock's mint instant).
        if case .codeMinted(_, let codeKind, _, let expiresAt?) = kind,
           let lifetime = HandoffRedemption.Kind(rawValue: codeKind)?.lifetime {
            own = expiresAt.addingTimeInterval(-lifetime)
        }
        self.init(at: own ?? at, paymentId: text("paymentId"), kind: kind)
    }
}

extension DiagnosticFact {
    /// `facts` with each `paymentRecorded` moved to the mint instant of its payment's first code (minted in the same
    /// append, on the service clock), so a payment and its codes compare with later facts on one clock.
    public static func onServiceClock(_ facts: [DiagnosticFact]) -> [DiagnosticFact] {
        var minted: [String: Date] = [:]
        for fact in facts {
            guard case .codeMinted(_, _, "payment", _) = fact.kind, let payment = fact.paymentId else { continue }
            minted[payment] = min(minted[payment] ?? fact.at, fact.at)
        }
        return facts.map { fact in
            guard case .paymentRecorded = fact.kind, let payment = fact.paymentId, let at = minted[payment] else {
                return fact
            }
            return DiagnosticFact(at: at, paymentId: payment, kind: fact.kind)
        }
    }
}
