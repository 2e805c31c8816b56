import Domain
import Testing

struct BuyerCreationTests {
    static let externalId = try! ExternalID.parse("user-42").get()
    static let email = try! EmailAddress.parse("buyer@example.com").get()
    static let known = BuyerGuid(randomBytes: [UInt8](repeating: 1, count: 16))
    static let verified = BuyerGuid(randomBytes: [UInt8](repeating: 2, count: 16))
    static let fresh = BuyerGuid(randomBytes: [UInt8](repeating: 3, count: 16))

    static func decide(byExternalId: BuyerGuid?, verifiedByEmail: BuyerGuid?, externalId: ExternalID?,
                       email: EmailAddress?) -> Result<BuyerCreation.Decision, Refusal> {
        decide(byExternalId: byExternalId, allVerified: verifiedByEmail.map { [$0] } ?? [], externalId: externalId,
               email: email)
    }

    static func decide(byExternalId: BuyerGuid?, allVerified: [BuyerGuid], externalId: ExternalID?,
                       email: EmailAddress?) -> Result<BuyerCreation.Decision, Refusal> {
        BuyerCreation.decide(BuyerCreation.State(byExternalId: byExternalId, verifiedByEmail: allVerified),
                             BuyerCreation.Command(externalId: externalId, email: email, newGuid: fresh))
    }

    @Test func anEmailTwoBuyersVerifiedNamesNeitherAndCreatesTheFreshGuidBesideTheAmbiguity() {
        let both = [Self.verified, Self.known]
        #expect(Self.decide(byExternalId: nil, allVerified: both, externalId: nil, email: Self.email)
            == .success(.createBesideAmbiguousEmail(Self.fresh, verified: both)))
        // An externalId still wins: the e-mail is not looked at.
        #expect(Self.decide(byExternalId: Self.known, allVerified: both, externalId: Self.externalId,
                            email: Self.email) == .success(.existing(Self.known)))
    }

    @Test func neitherAnExternalIdNorAnEmailIsRefused() {
        #expect(Self.decide(byExternalId: Self.known, verifiedByEmail: Self.verified, externalId: nil, email: nil)
            == .failure(Refusal(kind: .invalid, code: .externalIDOrEmailRequired, field: "externalId",
                                message: "field 'externalId' or field 'email' is required")))
    }

    @Test func aKnownExternalIdAnswersItsBuyer() {
        #expect(Self.decide(byExternalId: Self.known, verifiedByEmail: nil, externalId: Self.externalId, email: nil)
            == .success(.existing(Self.known)))
    }

    @Test func aKnownExternalIdWinsOverAVerifiedEmail() {
        #expect(Self.decide(byExternalId: Self.known, verifiedByEmail: Self.verified, externalId: Self.externalId,
                            email: Self.email) == .success(.existing(Self.known)))
    }

    @Test func anUnknownExternalIdCreatesTheFreshGuidEvenWhenTheEmailIsVerified() {
        #expect(Self.decide(byExternalId: nil, verifiedByEmail: Self.verified, externalId: Self.externalId,
                            email: Self.email) == .success(.create(Self.fresh)))
    }

    @Test func anEmailAloneAnswersTheBuyerThatVerifiedIt() {
        #expect(Self.decide(byExternalId: nil, verifiedByEmail: Self.verified, externalId: nil, email: Self.email)
            == .success(.existing(Self.verified)))
    }

    @Test func anEmailNoBuyerVerifiedCreatesTheFreshGuid() {
        #expect(Self.decide(byExternalId: nil, verifiedByEmail: nil, externalId: nil, email: Self.email)
            == .success(.create(Self.fresh)))
    }

    @Test func anEmailAloneNeverAnswersABuyerFoundByExternalId() {
        #expect(Self.decide(byExternalId: Self.known, verifiedByEmail: nil, externalId: nil, email: Self.email)
            == .success(.create(Self.fresh)))
    }
}
