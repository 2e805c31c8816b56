import Domain
import Foundation
import Testing

struct EmailRecoveryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let candidate = buyer("6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b")

    static func buyer(_ guid: String, paymentId: String = "pi_1") -> EmailRecovery.Candidate {
        EmailRecovery.Candidate(guid: guid, paymentId: paymentId, productId: "pro", amount: 999, currency: "USD",
                                paidAt: now - 60)
    }

    static func state(candidate: EmailRecovery.Candidate? = candidate, lastMailAgo: TimeInterval? = nil,
                      readable: Bool = true) -> EmailRecovery.State {
        EmailRecovery.State(candidates: candidate.map { [$0] } ?? [], lastMailAt: lastMailAgo.map { now - $0 },
                            addressReadable: readable)
    }

    @Test func anAddressNeverMailedSendsToItsBuyer() {
        #expect(EmailRecovery.decide(Self.state(), now: Self.now) == .send([Self.candidate]))
    }

    @Test func anAddressWithoutABuyerWithAPaymentIsSkippedBeforeAnythingElse() {
        #expect(EmailRecovery.decide(Self.state(candidate: nil, lastMailAgo: 1, readable: false), now: Self.now)
            == .skip(.noBuyer))
    }

    @Test func aMailExactlyTwentyMinutesAgoAllowsTheNextOne() {
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 20 * 60), now: Self.now) == .send([Self.candidate]))
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
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 60), now: Self.now, gap: 60) == .send([Self.candidate]))
        #expect(EmailRecovery.decide(Self.state(lastMailAgo: 59), now: Self.now, gap: 60) == .skip(.tooSoon))
    }

    @Test func everyBuyerWithTheAddressIsNamedAlikeUpToTenPerMail() {
        let two = [Self.buyer("g-newer", paymentId: "pi_2"), Self.buyer("g-older")]
        let both = EmailRecovery.State(candidates: two, lastMailAt: nil, addressReadable: true)
        #expect(EmailRecovery.decide(both, now: Self.now) == .send(two))
        let many = (1...12).map { Self.buyer("g\($0)") }
        let crowded = EmailRecovery.State(candidates: many, lastMailAt: nil, addressReadable: true)
        #expect(EmailRecovery.decide(crowded, now: Self.now) == .send(Array(many.prefix(10))))
        #expect(EmailRecovery.maxBuyersPerMail == 10)
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
