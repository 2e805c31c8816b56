import Domain
import Foundation
import Testing

struct EntitlementStatusTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aLifetimeEntitlementIsActive() {
        #expect(EntitlementStatus.judge(expiresAt: nil, refundedAt: nil, now: Self.now) == .active)
    }

    @Test func anEntitlementIsActiveUntilItsExpiry() {
        #expect(EntitlementStatus.judge(expiresAt: Self.now + 1, refundedAt: nil, now: Self.now) == .active)
    }

    @Test func anEntitlementIsExpiredFromItsExpiryInstantOn() {
        #expect(EntitlementStatus.judge(expiresAt: Self.now, refundedAt: nil, now: Self.now) == .expired)
        #expect(EntitlementStatus.judge(expiresAt: Self.now - 1, refundedAt: nil, now: Self.now) == .expired)
    }

    @Test func aRefundWinsOverActiveLifetimeAndExpired() {
        #expect(EntitlementStatus.judge(expiresAt: Self.now + 1, refundedAt: Self.now, now: Self.now) == .refunded)
        #expect(EntitlementStatus.judge(expiresAt: nil, refundedAt: Self.now - 1, now: Self.now) == .refunded)
        #expect(EntitlementStatus.judge(expiresAt: Self.now - 1, refundedAt: Self.now, now: Self.now) == .refunded)
    }

    @Test func theStatusesAreTheAnswersWords() {
        #expect(EntitlementStatus.allCases.map(\.rawValue) == ["active", "expired", "refunded"])
    }
}
