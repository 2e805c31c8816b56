import Domain
import Foundation
import Testing

struct EmailRecoveryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let candidate = EmailRecovery.Candidate(guid: "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b", paymentId: "pi_1")

    static func state(candidate: EmailRecovery.Candidate? = candidate, lastMailAgo: TimeInterval? = nil,
                      readable: Bool = true) -> EmailRecovery.State {
        EmailRecovery.State(candidate: candidate, lastMailAt: lastMailAgo.map { now - $0 }, addressReadable: readable)
    }

    @Test func anAddressNeverMailedSendsToItsBuyer() {
        #expect(EmailRecovery.decide(Self.state(), now: Self.now) == .send(Self.candidate))
    }

    @Test func anAddressWithoutABuyerWithAPaymentIsSkippedBeforeAnythingElse() {
        #expect(EmailRecovery.decide(Self.state(candidate: nil, lastMailAgo: 1, readable: false), now: Self.now)
            == .skip(.noBuyer))
    }

    @Test func aMailExactlyTwentyMinutesAgoAllowsTheNextOne() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 20 * 60), now: Self.now) == .send(Self.candidate))
    }

    @Test func aMailOneSecondLessThanTwentyMinutesAgoIsTooSoon() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 20 * 60 - 1), now: Self.now) == .skip(.tooSoon))
    }

    @Test func aLastMailAfterNowByClockSkewIsTooSoon() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: -(20 * 60 + 1)), now: Self.now) == .skip(.tooSoon))
    }

    @Test func tooSoonIsDecidedBeforeAnErasedAddress() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 1, readable: false), now: Self.now) == .skip(.tooSoon))
    }

    @Test func anErasedAddressIsSkipped() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 20 * 60, readable: false), now: Self.now)
            == .skip(.erased))
    }

    @Test func theGapCanBeGivenAndIncludesItsEdge() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 60), now: Self.now, gap: 60) == .send(Self.candidate))
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 59), now: Self.now, gap: 60) == .skip(.tooSoon))
    }

    @Test func theGapIsTwentyMinutes() {
        #expect(EmailRecovery.gap == 1200)
    }

    @Test func eachSkipExplainsItselfForTheJobLog() {
        #expect(EmailRecovery.Skip.noBuyer.explanation == "no buyer with a payment has this address")
        #expect(EmailRecovery.Skip.tooSoon.explanation
            == "a recovery mail went to this address less than 20 minutes ago")
        #expect(EmailRecovery.Skip.erased.explanation == "the address was erased")
    }
}
