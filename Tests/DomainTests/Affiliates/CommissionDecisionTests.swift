import Domain
import Foundation
import Testing

/// The commission decider, the terms' arithmetic and the sale facts read from App Store transactions (issue 15).
struct CommissionDecisionTests {
    static let bound = Date(timeIntervalSince1970: 1_800_000_000)
    static let token = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")!

    static func referral(_ kind: CommissionRule.Kind = .percent(basisPoints: 2_000), renewals: Int = 0,
                         hold: Int = 30) -> Referral {
        Referral(affiliateId: AffiliateID(UUID()), campaignId: CampaignID(UUID()), clickId: ClickID(UUID()),
                 boundAt: bound, windowEndsAt: bound + 30 * 86_400,
                 commission: CommissionRule(kind: kind, recurringRenewals: renewals), holdDays: hold)
    }

    static func sale(_ kind: CommissionSale.Kind = .sale, id: String = "1000", original: String = "1000",
                     bought: Date = bound + 60, originalBought: Date = bound + 60, amount: Int = 999,
                     currency: String = "USD") -> CommissionSale {
        CommissionSale(kind: kind, appAccountToken: token, transactionId: id, originalTransactionId: original,
                       saleType: id == original ? .firstPurchase : .renewal, purchasedAt: bought,
                       originalPurchasedAt: originalBought, baseAmount: amount, baseCurrency: currency)
    }

    static let empty = CommissionDecision.State(credit: nil, reversed: false, renewalsCredited: 0)

    @Test func aFirstPurchaseInsideTheWindowIsCreditedWithItsHold() {
        let now = Self.bound + 120
        #expect(CommissionDecision.decide(Self.sale(), referral: Self.referral(), state: Self.empty, now: now)
            == .credit(amount: 200, currency: "USD", payableAfter: now + 30 * 86_400))
        #expect(CommissionDecision.decide(Self.sale(), referral: Self.referral(hold: 0), state: Self.empty, now: now)
            == .credit(amount: 200, currency: "USD", payableAfter: now))
    }

    @Test func noReferralOutsideTheWindowOrBeforeTheBindEarnsNothing() {
        #expect(CommissionDecision.decide(Self.sale(), referral: nil, state: Self.empty, now: Self.bound) == nil)
        let late = Self.sale(bought: Self.bound + 30 * 86_400, originalBought: Self.bound + 30 * 86_400)
        #expect(CommissionDecision.decide(late, referral: Self.referral(), state: Self.empty, now: Self.bound) == nil)
        let early = Self.sale(bought: Self.bound - 301, originalBought: Self.bound - 301)
        #expect(CommissionDecision.decide(early, referral: Self.referral(), state: Self.empty, now: Self.bound) == nil)
        let skewed = Self.sale(bought: Self.bound - 299, originalBought: Self.bound - 299)
        #expect(CommissionDecision.decide(skewed, referral: Self.referral(), state: Self.empty, now: Self.bound)
            != nil)
    }

    @Test func renewalsEarnOnlyAsManyTimesAsTheCampaignSaysAndOnlyForAnOriginalInsideTheWindow() {
        let renewal = Self.sale(id: "1001", bought: Self.bound + 40 * 86_400)
        #expect(CommissionDecision.decide(renewal, referral: Self.referral(renewals: 0), state: Self.empty,
                                          now: Self.bound) == nil)
        let two = Self.referral(renewals: 2)
        #expect(CommissionDecision.decide(renewal, referral: two, state: Self.empty, now: Self.bound) != nil)
        let once = CommissionDecision.State(credit: nil, reversed: false, renewalsCredited: 1)
        #expect(CommissionDecision.decide(renewal, referral: two, state: once, now: Self.bound) != nil)
        let twice = CommissionDecision.State(credit: nil, reversed: false, renewalsCredited: 2)
        #expect(CommissionDecision.decide(renewal, referral: two, state: twice, now: Self.bound) == nil)
        let beforeReferral = Self.sale(id: "1001", bought: Self.bound + 86_400, originalBought: Self.bound - 86_400)
        #expect(CommissionDecision.decide(beforeReferral, referral: two, state: Self.empty, now: Self.bound) == nil)
    }

    @Test func aTransactionIsCreditedOnceAndReversedOnceByExactlyItsCredit() {
        let credit = CommissionDecision.Credited(eventId: "e", affiliateId: "a", campaignId: "c",
                                                 originalTransactionId: "1000", amount: 200, currency: "USD")
        let credited = CommissionDecision.State(credit: credit, reversed: false, renewalsCredited: 0)
        #expect(CommissionDecision.decide(Self.sale(), referral: Self.referral(), state: credited, now: Self.bound)
            == nil)
        #expect(CommissionDecision.decide(Self.sale(.reversal), referral: nil, state: credited, now: Self.bound)
            == .reverse(credit))
        let reversed = CommissionDecision.State(credit: credit, reversed: true, renewalsCredited: 0)
        #expect(CommissionDecision.decide(Self.sale(.reversal), referral: nil, state: reversed, now: Self.bound)
            == nil)
        #expect(CommissionDecision.decide(Self.sale(.reversal), referral: nil, state: Self.empty, now: Self.bound)
            == nil)
    }

    @Test func percentagesRoundHalfUpFixedAmountsKeepTheirCurrencyAndNothingIsEarnedOnNothing() {
        let percent = CommissionRule(kind: .percent(basisPoints: 2_500))
        #expect(percent.amount(baseAmount: 999, baseCurrency: "USD")! == (250, "USD"))
        #expect(percent.amount(baseAmount: 998, baseCurrency: "JPY")! == (250, "JPY"))
        #expect(percent.amount(baseAmount: 997, baseCurrency: "EUR")! == (249, "EUR"))
        #expect(percent.amount(baseAmount: 0, baseCurrency: "USD") == nil)
        #expect(percent.amount(baseAmount: 999, baseCurrency: "XXX") == nil)
        #expect(percent.amount(baseAmount: 1, baseCurrency: "USD") == nil)
        #expect(percent.amount(baseAmount: Int.max, baseCurrency: "USD") == nil)
        let fixed = CommissionRule(kind: .fixed(amountMinor: 500, currency: "EUR"))
        #expect(fixed.amount(baseAmount: 999, baseCurrency: "USD")! == (500, "EUR"))
        #expect(fixed.amount(baseAmount: 0, baseCurrency: "XXX")! == (500, "EUR"))
    }

    static func transaction(_ fields: String) throws -> AppleTransaction {
        try JSONDecoder().decode(AppleTransaction.self, from: Data(("{" + fields + "}").utf8))
    }

    @Test func saleFactsComeFromTheSignedTransaction() throws {
        let token = Self.token.uuidString.lowercased()
        let first = try Self.transaction("""
            "transactionId":"2000","originalTransactionId":"2000","purchaseDate":1800000060000,
            "originalPurchaseDate":1800000060000,"price":9990,"currency":"USD","appAccountToken":"\(token)"
            """)
        let sale = try #require(CommissionSale.from(notificationType: "SUBSCRIBED", transaction: first))
        #expect(sale == CommissionSale(kind: .sale, appAccountToken: Self.token, transactionId: "2000",
                                       originalTransactionId: "2000", saleType: .firstPurchase,
                                       purchasedAt: Self.bound + 60, originalPurchasedAt: Self.bound + 60,
                                       baseAmount: 999, baseCurrency: "USD"))
        let renewal = try Self.transaction("""
            "transactionId":"2001","originalTransactionId":"2000","purchaseDate":1800086460000,
            "originalPurchaseDate":1800000060000,"price":9990,"currency":"USD","appAccountToken":"\(token)"
            """)
        #expect(CommissionSale.from(notificationType: "DID_RENEW", transaction: renewal)?.saleType == .renewal)
        #expect(CommissionSale.from(notificationType: "REFUND", transaction: renewal)?.kind == .reversal)
        #expect(CommissionSale.from(notificationType: "DID_CHANGE_RENEWAL_STATUS", transaction: renewal) == nil)
        #expect(CommissionSale.from(notificationType: "SUBSCRIBED", transaction: nil) == nil)
        let anonymous = try Self.transaction(#""transactionId":"2002","purchaseDate":1800000060000"#)
        #expect(CommissionSale.from(notificationType: "SUBSCRIBED", transaction: anonymous) == nil)
    }
}
