import Domain
import Foundation
import Testing

/// `HandoffVerdict.judge`: the identification path and instant, or the likeliest reason with what to do.
@Suite struct HandoffVerdictTests {
    static let paidAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let on = HandoffVerdict.ProjectFacts(fingerprint: true, trackerLinkMissingAdjT: false)

    static func fact(_ seconds: Double, _ kind: DiagnosticFact.Kind, payment: String? = "pi_1") -> DiagnosticFact {
        DiagnosticFact(at: paidAt.addingTimeInterval(seconds), paymentId: payment, kind: kind)
    }

    static let paid = fact(0, .paymentRecorded(productId: "pro", amount: 999, currency: "EUR", source: nil))
    static let handoff = fact(0, .codeMinted(codeHash: "h1", kind: "handoff", source: "payment",
                                             expiresAt: paidAt.addingTimeInterval(72 * 3600)))
    static let install = fact(0, .codeMinted(codeHash: "i1", kind: "install", source: "payment",
                                             expiresAt: paidAt.addingTimeInterval(30 * 86400)))
    static let minted = [paid, handoff, install]

    func judge(_ facts: [DiagnosticFact], project: HandoffVerdict.ProjectFacts = on, after seconds: Double = 60)
        -> HandoffVerdict
    {
        HandoffVerdict.judge(facts, project: project, now: Self.paidAt.addingTimeInterval(seconds))
    }

    @Test func eachPathIsNamedWithItsInstant() {
        let at = Self.paidAt.addingTimeInterval(90)
        #expect(judge(Self.minted + [Self.fact(90, .codeRedeemed(codeHash: "h1", kind: "handoff"))])
            == .identified(path: .handoffCode, at: at))
        #expect(judge(Self.minted + [Self.fact(90, .codeRedeemed(codeHash: "i1", kind: "install"))])
            == .identified(path: .installToken, at: at))
        #expect(judge(Self.minted + [Self.fact(90, .fingerprintMatched(method: "fingerprint"))])
            == .identified(path: .fingerprintExact, at: at))
        #expect(judge(Self.minted + [Self.fact(90, .fingerprintMatched(method: "ip"))])
            == .identified(path: .fingerprintIp, at: at))
        let recovery = Self.fact(80, .codeMinted(codeHash: "r1", kind: "handoff", source: "recovery", expiresAt: nil))
        #expect(judge(Self.minted + [recovery, Self.fact(90, .codeRedeemed(codeHash: "r1", kind: "handoff"))])
            == .identified(path: .recoveryMail, at: at))
        let created = Self.fact(-30, .buyerCreated(withExternalId: true, withEmail: false), payment: nil)
        #expect(judge([created] + Self.minted) == .identified(path: .externalId, at: Self.paidAt))
        let store = Self.fact(5, .paymentRecorded(productId: "p", amount: 1, currency: "USD", source: "apple"))
        #expect(judge([store]) == .identified(path: .storeNotification, at: Self.paidAt.addingTimeInterval(5)))
    }

    @Test func theFirstIdentificationWins() {
        let facts = Self.minted + [Self.fact(200, .codeRedeemed(codeHash: "h1", kind: "handoff")),
                                   Self.fact(100, .fingerprintMatched(method: "ip"))]
        #expect(judge(facts) == .identified(path: .fingerprintIp, at: Self.paidAt.addingTimeInterval(100)))
    }

    @Test func theLatestFingerprintRefusalIsTheLikeliestReason() {
        let facts = Self.minted + [Self.fact(10, .fingerprintRefused(.windowPassed)),
                                   Self.fact(20, .fingerprintRefused(.contradicting(attribute: "screen")))]
        #expect(judge(facts) == .notIdentified(.fingerprintRefused(.contradicting(attribute: "screen"))))
        #expect(judge(facts).words.hasPrefix("not identified yet: the app asked by fingerprint and was refused: "
            + "the app's screen differs from the browser's (contradicting) — "))
    }

    @Test func otherReasonsInOrder() {
        #expect(judge([]) == .notIdentified(.noPayment))
        #expect(judge(Self.minted + [Self.fact(10, .recoveryMailSkipped(reason: "tooSoon"))])
            == .notIdentified(.recoverySkipped(reason: "tooSoon")))
        #expect(judge(Self.minted + [Self.fact(10, .recoveryMailSent)]) == .notIdentified(.recoveryNotUsed))
        #expect(judge(Self.minted, after: 72 * 3600) == .notIdentified(.codeExpiredUnused))
        #expect(judge(Self.minted + [Self.fact(10, .codeRefused(kind: "handoff", reason: "expired"))])
            == .notIdentified(.codeExpiredUnused))
        #expect(judge(Self.minted, project: .init(fingerprint: true, trackerLinkMissingAdjT: true))
            == .notIdentified(.trackerLinkMissingAdjT))
        #expect(judge(Self.minted, project: .init(fingerprint: false, trackerLinkMissingAdjT: false))
            == .notIdentified(.fingerprintingOff))
        #expect(judge(Self.minted) == .notIdentified(.noFingerprintCaptured))
        let opened = Self.fact(3, .pageOpened(platform: "ios", language: "en"))
        #expect(judge(Self.minted + [opened]) == .notIdentified(.openedWithoutFingerprint))
        let captured = Self.fact(5, .fingerprintCaptured(platform: "ios", language: "en", attributes: ["ip"]))
        #expect(judge(Self.minted + [captured])
            == .notIdentified(.recoveryNeverRequested(codeValidUntil: Self.paidAt.addingTimeInterval(72 * 3600))))
    }

    @Test func theVerdictReadsAsOneLine() {
        #expect(HandoffVerdict.identified(path: .handoffCode, at: Self.paidAt).words
            == "identified via handoff code at 2027-01-15T08:00:00.000Z")
        #expect(HandoffVerdict.notIdentified(.codeExpiredUnused).words
            == "not identified yet: the handoff code expired unused — have the buyer request a recovery mail from "
                + "the app")
    }
}
