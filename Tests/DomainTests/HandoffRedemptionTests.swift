import Domain
import Foundation
import Testing

struct HandoffRedemptionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let hash = String(repeating: "ab", count: 32)

    static func code(_ kind: HandoffRedemption.Kind = .handoff, expiresIn: TimeInterval = 60, redeemed: Bool = false,
                     emailHash: String? = hash, verified: Bool? = false,
                     source: HandoffRedemption.Source = .payment,
                     rule: EmailVerification = .payment) -> HandoffRedemption.Code {
        HandoffRedemption.Code(kind: kind, expiresAt: now + expiresIn, redeemedAt: redeemed ? now - 1 : nil,
                               emailHash: emailHash, emailVerified: verified, source: source,
                               emailVerification: rule)
    }

    @Test func anUnknownCodeIsRefused() {
        #expect(HandoffRedemption.decide(nil, now: Self.now) == .refused(.unknown))
    }

    @Test func aLiveHandoffCodeIsRedeemedAndVerifiesItsUnverifiedEmail() {
        #expect(HandoffRedemption.decide(Self.code(), now: Self.now)
            == .redeem([.redeemed(at: Self.now), .emailVerified(emailHash: Self.hash)]))
    }

    @Test func aCodeIsLiveUntilTheInstantBeforeItsExpiryAndExpiredFromIt() {
        #expect(HandoffRedemption.decide(Self.code(expiresIn: 0.001, emailHash: nil), now: Self.now)
            == .redeem([.redeemed(at: Self.now)]))
        #expect(HandoffRedemption.decide(Self.code(expiresIn: 0), now: Self.now) == .refused(.expired))
        #expect(HandoffRedemption.decide(Self.code(expiresIn: -1), now: Self.now) == .refused(.expired))
    }

    @Test func aSpentCodeIsRefusedEvenWhenAlsoExpired() {
        #expect(HandoffRedemption.decide(Self.code(redeemed: true), now: Self.now) == .refused(.spent))
        #expect(HandoffRedemption.decide(Self.code(expiresIn: -1, redeemed: true), now: Self.now) == .refused(.spent))
    }

    @Test func anInstallTokenNeverVerifiesAnEmail() {
        #expect(HandoffRedemption.decide(Self.code(.install), now: Self.now) == .redeem([.redeemed(at: Self.now)]))
    }

    @Test func anAlreadyVerifiedOrUnattachedEmailRecordsNoVerification() {
        let onlySpent = HandoffRedemption.Decision.redeem([.redeemed(at: Self.now)])
        #expect(HandoffRedemption.decide(Self.code(verified: true), now: Self.now) == onlySpent)
        #expect(HandoffRedemption.decide(Self.code(verified: nil), now: Self.now) == onlySpent)
        #expect(HandoffRedemption.decide(Self.code(emailHash: nil), now: Self.now) == onlySpent)
    }

    @Test func underTheMailboxRuleOnlyAMailedCodeVerifiesTheAddress() {
        let verifies = HandoffRedemption.Decision.redeem([.redeemed(at: Self.now),
                                                          .emailVerified(emailHash: Self.hash)])
        let onlySpent = HandoffRedemption.Decision.redeem([.redeemed(at: Self.now)])
        #expect(HandoffRedemption.decide(Self.code(source: .payment, rule: .payment), now: Self.now) == verifies)
        #expect(HandoffRedemption.decide(Self.code(source: .recovery, rule: .payment), now: Self.now) == verifies)
        #expect(HandoffRedemption.decide(Self.code(source: .payment, rule: .mailbox), now: Self.now) == onlySpent)
        #expect(HandoffRedemption.decide(Self.code(source: .recovery, rule: .mailbox), now: Self.now) == verifies)
    }

    @Test func emailVerificationParsesItsTwoValuesAndNamesTheFieldOtherwise() {
        #expect(EmailVerification.parse("payment") == .success(.payment))
        #expect(EmailVerification.parse("mailbox") == .success(.mailbox))
        guard case .failure(let refusal) = EmailVerification.parse("Mailbox", field: "--email-verification") else {
            Issue.record("Mailbox parsed")
            return
        }
        #expect(refusal.field == "--email-verification" && refusal.code == .emailVerificationFormat)
    }

    @Test func theLifetimesAre72HoursAnd30Days() {
        #expect(HandoffRedemption.Kind.handoff.lifetime == 72 * 3600)
        #expect(HandoffRedemption.Kind.install.lifetime == 30 * 86400)
    }
}
