import Foundation

extension DiagnosticFact {
    /// The fact in one English sentence a support person understands; names no code, e-mail or IP.
    public var line: String {
        switch kind {
        case .buyerCreated(let withExternalId, let withEmail):
            let known = [withExternalId ? "your externalId" : nil, withEmail ? "an e-mail" : nil].compactMap { $0 }
            return "Buyer created" + (known.isEmpty ? "." : " with \(known.joined(separator: " and ")).")
        case .paymentRecorded(let productId, let amount, let currency, let source):
            let stores = ["apple": "an App Store", "google": "a Google Play", "revenuecat": "a RevenueCat"]
            let origin = source.map { " from \(stores[$0] ?? "a \($0)") notification" } ?? ""
            return "Payment recorded\(origin): \(productId), \(amount) \(currency) (minor units)."
        case .codeMinted(_, let kind, let source, let expiresAt):
            let what = kind == "install" ? "Install token" : source == "recovery" ? "Recovery code" : "Handoff code"
            return "\(what) minted (redacted), valid until \(expiresAt.map(PaymentFields.text) ?? "unknown")."
        case .pageOpened(let platform, let language):
            return "Post-payment page opened on \(platform ?? "another platform")"
                + (language.map { ", in language \($0)" } ?? "") + "."
        case .fingerprintCaptured(let platform, let language, let attributes):
            return "Post-payment page opened on \(platform ?? "an unknown platform")"
                + (language.map { ", language \($0)" } ?? "")
                + ", and sent a fingerprint (\(attributes.joined(separator: ", ")))."
        case .codeRedeemed(_, let kind):
            return "\(kind == "install" ? "Install token" : "Handoff code") redeemed by the app: it learned the guid."
        case .codeRefused(let kind, let reason):
            let what = kind == "install" ? "install token" : "handoff code"
            let why = reason == "expired" ? "it had expired" : "it was already used"
            return "An app offered the \(what), refused because \(why)."
        case .fingerprintMatched(let method):
            let how = method == "ip" ? "by IP address only (within 30 min)"
                : "exactly (IP, platform, screen, time zone)"
            return "Fingerprint matched \(how): the app learned the guid."
        case .fingerprintRefused(let refusal):
            return "A device on the same network asked by fingerprint and was refused: \(refusal.explanation)."
        case .emailVerified:
            return "E-mail verified by redeeming a code."
        case .recoveryRequested:
            return "Recovery mail requested for the buyer's e-mail."
        case .recoveryMailSent:
            return "Recovery mail sent with a fresh code."
        case .recoveryMailSkipped(let reason):
            return "Recovery mail not sent: \(EmailRecovery.Skip(rawValue: reason)?.explanation ?? reason)."
        case .paymentRefunded:
            return "Payment refunded: the entitlement is revoked."
        case .paymentRenewed(let expiresAt):
            return "Store renewed the subscription until \(expiresAt.map(PaymentFields.text) ?? "unknown")."
        case .paymentExpired:
            return "Store reported the subscription expired."
        case .paymentTransferred(let toOtherBuyer):
            return toOtherBuyer ? "Store moved the purchase to another buyer."
                : "Store moved the purchase to this buyer."
        case .buyerErased:
            return "Buyer's personal data erased."
        }
    }
}

extension DiagnosticFact {
    /// The lines of `facts` (one buyer's or payment's), each `line`, except that a redeemed code minted by a recovery
    /// mail among `facts` says so (its redeem event alone cannot tell).
    public static func lines(_ facts: [DiagnosticFact]) -> [String] {
        let recovery = recoveryCodes(facts)
        return facts.map { fact in
            if case .codeRedeemed(let hash, _) = fact.kind, recovery.contains(hash) {
                return "Recovery code redeemed by the app: it learned the guid."
            }
            return fact.line
        }
    }

    /// The hashes of the codes among `facts` that recovery mails carried.
    static func recoveryCodes(_ facts: [DiagnosticFact]) -> Set<String> {
        Set(facts.compactMap { fact -> String? in
            if case .codeMinted(let hash, _, "recovery", _) = fact.kind { return hash }
            return nil
        })
    }
}

extension FingerprintRefusal {
    /// Why, in words.
    public var explanation: String {
        switch self {
        case .ambiguous: "another buyer's fingerprint from the same network fitted too (ambiguous)"
        case .contradicting(let attribute): "the app's \(attribute) differs from the browser's (contradicting)"
        case .windowPassed: "more than 30 minutes after the payment and no exact match (window passed)"
        case .disabled: "fingerprinting is off for the project (disabled)"
        }
    }
}
