@testable import API
import Domain
import Foundation
import Testing
import TestSupport

/// No buyer may take an e-mail address away from another (issue 12 §1): a recovery mail names every buyer with the
/// address, an address two buyers verified finds neither, and `emailVerification: mailbox` lets only a mailed code
/// verify an address.
@Suite struct EmailOwnershipTests {
    typealias Flow = EmailRecoveryFlow
    static let victim = "victim@example.com"
    static let owner = "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"
    static let taker = "6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b"

    /// Records a payment for `guid` with the victim's address; returns its handoff code.
    private func pay(_ flow: Flow, _ guid: String, paymentId: String, amount: String = "999") throws -> String {
        let paid = flow.api.respond(to: s2sRequest(
            .post, "/s2s/v1/payments", key: flow.tenant.key,
            body: PaymentTests.body(guid: guid, paymentId: paymentId, amount: amount,
                                    extra: #","email":"\#(Self.victim)""#)))
        #expect(paid.status == 200, "\(bodyText(paid))")
        return try #require((jsonObject(paid)["handoff"] as? [String: Any])?["code"] as? String)
    }

    private func redeem(_ flow: Flow, _ code: String) -> String? {
        let resolved = ResolveTests.resolve(flow.api, code, ip: "198.51.100.\(Int.random(in: 1...250))")
        return (jsonObject(resolved)["data"] as? [String: Any])?["guid"] as? String
    }

    private func userByEmail(_ flow: Flow) -> String? {
        jsonObject(flow.api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: flow.tenant.key,
                                                   body: #"{"email":"\#(Self.victim)"}"#)))["guid"] as? String
    }

    private func verified(_ flow: Flow, _ guid: String) throws -> Bool {
        try flow.fixture.ownerConnection().query(
            "SELECT bool_or(verified) AS v FROM buyer_emails WHERE guid::text = $1", [.text(guid)]).rows[0]["v"] == "t"
    }

    @Test func aRecoveryMailNamesEveryBuyerWithTheAddressEachWithItsOwnCodeAndPurchase() throws {
        let flow = try Flow()
        // The owner pays and redeems (verifying the address on them); the taker pays with the same address later.
        #expect(redeem(flow, try pay(flow, Self.owner, paymentId: "pi_owner")) == Self.owner)
        flow.advance(60)
        #expect(redeem(flow, try pay(flow, Self.taker, paymentId: "pi_taker", amount: "1500")) == Self.taker)

        #expect(flow.request(flow.body(email: Self.victim)).status == 204)
        try flow.work(jobs: 1)
        let mails = flow.sink.messages()
        try #require(mails.count == 1)
        let text = RecoveryMail.textPart(mails[0])
        // Newest payment first; each purchase line precedes its own code.
        #expect(text.contains("This address was given with 2 purchases. Each has its own code below: "
            + "use the one of the purchase you made."))
        let codes = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { HandoffCode.parse($0) != nil }
        try #require(codes.count == 2 && codes[0] != codes[1])
        let takerLine = try #require(text.range(of: "Purchase: com.app.pro_monthly, 15.00 EUR, paid "))
        let ownerLine = try #require(text.range(of: "Purchase: com.app.pro_monthly, 9.99 EUR, paid "))
        #expect(takerLine.lowerBound < ownerLine.lowerBound)
        #expect(text.range(of: codes[0])!.lowerBound < ownerLine.lowerBound)
        #expect(text.contains("Each code works once, until "))
        #expect(RecoveryMail.htmlPart(mails[0]).contains("<strong>\(codes[1])</strong>"))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 2)

        // The mailbox owner picks theirs: each code is its own buyer's, neither is preferred.
        #expect(redeem(flow, codes[1]) == Self.owner)
        #expect(redeem(flow, codes[0]) == Self.taker)

        // Still one mail per 20 minutes for the address, however many buyers it names.
        #expect(flow.request(flow.body(email: Self.victim)).status == 204)
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().count == 1)
    }

    @Test func anAddressTwoBuyersVerifiedFindsNeitherAndRecordsEmailAmbiguous() throws {
        let flow = try Flow()
        #expect(redeem(flow, try pay(flow, Self.owner, paymentId: "pi_owner")) == Self.owner)
        // One verified buyer: the e-mail-only lookup answers it.
        #expect(userByEmail(flow) == Self.owner)
        #expect(try flow.events("EmailAmbiguous", org: flow.tenant.org) == 0)

        #expect(redeem(flow, try pay(flow, Self.taker, paymentId: "pi_taker")) == Self.taker)
        // Two verified buyers: neither is handed out; a new buyer is made and the ambiguity is recorded.
        let answered = try #require(userByEmail(flow))
        #expect(answered != Self.owner && answered != Self.taker)
        #expect(try flow.events("EmailAmbiguous", org: flow.tenant.org) == 1)
        let event = try flow.fixture.ownerConnection().query("""
            SELECT stream_id, data->>'guid' AS guid, data->'verifiedGuids' AS verified FROM events
            WHERE org_id = $1::uuid AND event_type = 'EmailAmbiguous'
            """, [.text(flow.tenant.org)]).rows[0]
        #expect(try event.string("stream_id") == "buyer-" + answered && event.string("guid") == answered)
        let listed = try JSONSerialization.jsonObject(with: Data(try event.string("verified").utf8)) as? [String]
        #expect(Set(listed ?? []) == [Self.owner, Self.taker])
        // The answer was a new buyer, so the next ambiguous lookup is another new one, never either owner.
        let again = try #require(userByEmail(flow))
        #expect(again != answered && again != Self.owner && again != Self.taker)
    }

    @Test func underTheMailboxRuleOnlyTheMailedCodeVerifiesTheAddress() throws {
        let flow = try Flow(settings: ["--email-verification", "mailbox"])
        // Redeeming the payment's own code spends it but verifies nothing: anyone can type any address into a
        // payment.
        #expect(redeem(flow, try pay(flow, Self.taker, paymentId: "pi_taker")) == Self.taker)
        #expect(try !verified(flow, Self.taker))
        #expect(try flow.events("EmailVerified", org: flow.tenant.org) == 0)
        #expect(userByEmail(flow) != Self.taker)

        // A code mailed to the address does verify it.
        #expect(flow.request(flow.body(email: Self.victim)).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let code = try #require(RecoveryMail.code(RecoveryMail.textPart(mail)))
        #expect(redeem(flow, code) == Self.taker)
        #expect(try verified(flow, Self.taker))
        #expect(userByEmail(flow) == Self.taker)
    }

    @Test func underThePaymentRuleThePaymentsCodeVerifiesTheAddress() throws {
        let flow = try Flow()
        #expect(redeem(flow, try pay(flow, Self.owner, paymentId: "pi_owner")) == Self.owner)
        #expect(try verified(flow, Self.owner))
        #expect(userByEmail(flow) == Self.owner)
    }
}
