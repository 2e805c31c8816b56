import Domain
import Foundation
import Testing

struct HandoffRedemptionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let hash = String(repeating: "ab", count: 32)

    static func code(_ kind: HandoffRedemption.Kind = .handoff, expiresIn: TimeInterval = 60, redeemed: Bool = false,
                     emailHash: String? = hash, verified: Bool? = false) -> HandoffRedemption.Code {
        HandoffRedemption.Code(kind: kind, expiresAt: now + expiresIn, redeemedAt: redeemed ? now - 1 : nil,
                               emailHash: emailHash, emailVerified: verified)
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

    @Test func theLifetimesAre72HoursAnd30Days() {
        #expect(HandoffRedemption.Kind.handoff.lifetime == 72 * 3600)
        #expect(HandoffRedemption.Kind.install.lifetime == 30 * 86400)
    }
}
