import Domain
import Testing

struct PaymentRecordingTests {
    static let org = OrgID(randomBytes: [UInt8](repeating: 1, count: 16))
    static let otherOrg = OrgID(randomBytes: [UInt8](repeating: 2, count: 16))
    static let guid = BuyerGuid(randomBytes: [UInt8](repeating: 3, count: 16))
    static let project = ProjectID(randomBytes: [UInt8](repeating: 4, count: 16))
    static let hash = String(repeating: "ab", count: 32)
    static let stored = PaymentRecording.Stored(bodyHash: hash, guid: guid, projectId: project)
    static let conflict = Result<PaymentRecording.Decision, Refusal>.failure(Refusal(
        kind: .conflict, code: .paymentConflict, field: "paymentId",
        message: "payment 'paymentId' was already recorded with a different body"))

    static func decide(stored: PaymentRecording.Stored? = nil, home: OrgID? = nil, hasThisEmail: Bool = false,
                       bodyHash: String = hash, hasEmail: Bool = true) -> Result<PaymentRecording.Decision, Refusal> {
        let buyer = home.map { PaymentRecording.Buyer(homeOrg: $0, hasThisEmail: hasThisEmail) }
        return PaymentRecording.decide(PaymentRecording.State(stored: stored, buyer: buyer),
                                       PaymentRecording.Command(org: org, guid: guid, bodyHash: bodyHash,
                                                                hasEmail: hasEmail))
    }

    @Test func aStoredPaymentWithTheSameBodyIsARepeatOfIt() {
        #expect(Self.decide(stored: Self.stored, home: Self.org) == .success(.repeatOf(Self.stored)))
    }

    @Test func aRepeatIsAnsweredBeforeTheBuyerIsJudged() {
        #expect(Self.decide(stored: Self.stored, home: Self.otherOrg) == .success(.repeatOf(Self.stored)))
    }

    @Test func aStoredPaymentWithAnotherBodyIsAConflict() {
        #expect(Self.decide(stored: Self.stored, home: Self.org, bodyHash: String(Self.hash.dropLast()) + "c")
            == Self.conflict)
        #expect(Self.decide(stored: Self.stored, home: Self.org, bodyHash: "c" + Self.hash.dropFirst())
            == Self.conflict)
    }

    @Test func aBodyHashThatIsAPrefixOrExtensionOfTheStoredOneIsAConflict() {
        #expect(Self.decide(stored: Self.stored, home: Self.org, bodyHash: String(Self.hash.dropLast()))
            == Self.conflict)
        #expect(Self.decide(stored: Self.stored, home: Self.org, bodyHash: Self.hash + "ab") == Self.conflict)
        #expect(Self.decide(stored: Self.stored, home: Self.org, bodyHash: "") == Self.conflict)
    }

    @Test func aConflictIsAnsweredBeforeTheBuyerIsJudged() {
        #expect(Self.decide(stored: Self.stored, home: Self.otherOrg, bodyHash: "cd") == Self.conflict)
    }

    @Test func aGuidOfAnotherOrganizationIsRefusedAsAForeignBuyer() {
        #expect(Self.decide(home: Self.otherOrg) == .failure(.foreignBuyer()))
    }

    @Test func anUnseenGuidCreatesItsBuyerWithOrWithoutAnEmail() {
        #expect(Self.decide(home: nil, hasEmail: true) == .success(.record(.create)))
        #expect(Self.decide(home: nil, hasEmail: false) == .success(.record(.create)))
    }

    @Test func aBuyerOfThisOrganizationWithoutTheGivenEmailGetsItAttached() {
        #expect(Self.decide(home: Self.org, hasThisEmail: false, hasEmail: true) == .success(.record(.attachEmail)))
    }

    @Test func aBuyerThatHasTheEmailAlreadyNeedsNothing() {
        #expect(Self.decide(home: Self.org, hasThisEmail: true, hasEmail: true) == .success(.record(.none)))
    }

    @Test func aPaymentWithoutAnEmailLeavesAKnownBuyerAsItIs() {
        #expect(Self.decide(home: Self.org, hasThisEmail: false, hasEmail: false) == .success(.record(.none)))
    }
}
