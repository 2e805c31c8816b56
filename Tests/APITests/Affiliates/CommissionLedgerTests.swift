import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The commission ledger (issue 15): verified App Store notifications carrying a bound `appAccountToken` credit and
/// reverse an affiliate's commission exactly once, whichever way they arrive (store URL or surface), and statements
/// add up to the ledger's events.
@Suite struct CommissionLedgerTests {
    /// 2029-12-31T00:00:00Z: binds happen then; purchases a minute later (the test chain is valid in 2030).
    static let start = Date(timeIntervalSince1970: 1_893_369_600)
    static let day: TimeInterval = 86_400

    /// A fixture with an App Store app, a surface of it, a campaign (20 %, one recurring renewal, 30-day window,
    /// 30-day hold), one affiliate, and the clock at `start`.
    struct Ledger {
        let fixture: SurfaceFixture
        let clock: SettableClock
        let app: (id: String, token: String)
        let surface: (id: String, secret: String)
        let affiliate: String
        let refCode: String

        init(commission: String = #"{"type":"percent","basisPoints":2000,"recurringRenewals":1}"#) throws {
            let clock = SettableClock(CommissionLedgerTests.start)
            fixture = try SurfaceFixture.migrated(clock: { clock.now() })
            self.clock = clock
            app = try fixture.store.appleApp()
            surface = try fixture.surface(app: app.id)
            let campaign = fixture.apps.send(.post, "/s2s/v1/campaigns", key: fixture.tenant.key, body: """
                {"name":"Launch","commission":\(commission),"windowDays":30,"holdDays":30}
                """)
            let campaignId = try #require(jsonObject(campaign)["campaignId"] as? String, "\(bodyText(campaign))")
            let created = fixture.apps.send(.post, "/s2s/v1/affiliates", key: fixture.tenant.key,
                                            body: #"{"name":"Jane","campaignId":"\#(campaignId)"}"#)
            affiliate = try #require(jsonObject(created)["affiliateId"] as? String, "\(bodyText(created))")
            refCode = try #require(jsonObject(created)["refCode"] as? String)
        }

        /// Binds by the affiliate's code (for `guid` when given); the token to buy with.
        func bind(guid: String? = nil) throws -> String {
            let guidField = guid.map { #","guid":"\#($0)""# } ?? ""
            let response = fixture.apps.api.respond(to: Request(
                method: .post, path: "/v1/app-store/bind", query: [:], headers: Headers([]),
                body: Array(#"{"projectId":"\#(fixture.tenant.project)","refCode":"\#(refCode)"\#(guidField)}"#.utf8),
                clientIP: "198.51.100.80", remoteAddress: "198.51.100.80"))
            let data = jsonObject(response)["data"] as? [String: Any]
            return try #require(data?["appAccountToken"] as? String, "\(response.status) \(bodyText(response))")
        }

        /// A signed notification body: `type` for transaction `id` (of `original`), bought with `token` at
        /// `bought` (the original at `originalBought`), priced `price` milliunits of `currency`.
        static func notification(_ type: String, token: String, id: String, original: String? = nil,
                                 bought: Date = start + 60, originalBought: Date? = nil, price: Int = 9_990,
                                 currency: String = "USD", uuid: String = UUID().uuidString.lowercased()) -> String {
            var transaction = ApplePayloads.transaction(appAccountToken: token, transactionId: id,
                                                        originalTransactionId: original ?? id)
            transaction["purchaseDate"] = Int64(bought.timeIntervalSince1970 * 1000)
            transaction["originalPurchaseDate"] = Int64((originalBought ?? bought).timeIntervalSince1970 * 1000)
            transaction["price"] = price
            transaction["currency"] = currency
            let signed = AppleSigner.test.sign(transaction)
            return #"{"signedPayload":"\#(AppleSigner.test.sign(ApplePayloads.notification(type: type, uuid: uuid, transaction: signed)))"}"#
        }

        /// Posts `body` to the app's store URL; the status.
        func post(_ body: String) -> Int { fixture.store.post("apple", token: app.token, body: body).status }

        /// `GET /s2s/v1/affiliates/{id}/statement` (with `query`) as JSON.
        func statement(_ query: [String: String] = [:], key: String? = nil, affiliate: String? = nil)
            -> (status: Int, json: [String: Any])
        {
            let response = fixture.apps.api.respond(to: Request(
                method: .get, path: "/s2s/v1/affiliates/\(affiliate ?? self.affiliate)/statement", query: query,
                headers: Headers([("Authorization", "Bearer " + (key ?? fixture.tenant.key))]), body: [],
                clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
            return (response.status, jsonObject(response))
        }

        func events(_ type: String) throws -> [[String: Any]] {
            try fixture.store.events(type).map {
                try JSONSerialization.jsonObject(with: Data($0.data.utf8)) as! [String: Any]
            }
        }
    }

    static func totals(_ json: [String: Any]) -> [[String: Any]] { json["totals"] as? [[String: Any]] ?? [] }

    @Test func aFirstPurchaseIsCreditedOnceWhicheverWayItArrivesAndIsPayableAfterItsHold() throws {
        let ledger = try Ledger()
        let guid = ledger.fixture.store.buyer()
        let token = try ledger.bind(guid: guid)
        #expect(token == ledger.fixture.store.appAccountToken(guid))
        let body = Ledger.notification("SUBSCRIBED", token: token, id: "3000")
        #expect(ledger.post(body) == 200)
        #expect(try ledger.fixture.forward(surface: ledger.surface.id, secret: ledger.surface.secret, body: body,
                                           timestamp: SurfaceFixture.seconds(Self.start)).status == 200)
        #expect(ledger.post(body) == 200)
        let credits = try ledger.events("CommissionCredited")
        try #require(credits.count == 1)
        #expect(credits[0]["affiliateId"] as? String == ledger.affiliate)
        #expect(credits[0]["transactionId"] as? String == "3000")
        #expect(credits[0]["saleType"] as? String == "first_purchase")
        #expect(credits[0]["baseAmount"] as? Int == 999)
        #expect(credits[0]["baseCurrency"] as? String == "USD")
        #expect(credits[0]["amount"] as? Int == 200)
        #expect(credits[0]["currency"] as? String == "USD")
        #expect(credits[0]["payableAfter"] as? String == "2030-01-30T00:00:00.000Z")
        // The buyer's entitlement came with it, as for any App Store purchase.
        #expect(!ledger.fixture.store.entitlements(guid).isEmpty)

        let held = ledger.statement()
        #expect(held.status == 200)
        let entries = held.json["entries"] as? [[String: Any]] ?? []
        try #require(entries.count == 1)
        #expect(entries[0]["entry"] as? String == "credit")
        #expect(Self.totals(held.json).first?["held"] as? Int == 200)
        #expect(Self.totals(held.json).first?["payableNow"] as? Int == 0)
        let owner = try ledger.fixture.apps.tenants.ownerConnection()
        let row = try owner.query("""
            SELECT org_seq::text AS seq, encode(hash, 'hex') AS hash FROM events
            WHERE org_id = $1::uuid AND event_type = 'CommissionCredited'
            """, [.text(ledger.fixture.tenant.org)]).rows[0]
        #expect(entries[0]["orgSeq"] as? Int == Int(try row.string("seq")))
        #expect(entries[0]["hash"] as? String == (try row.string("hash")))

        ledger.clock.set(Self.start + 30 * Self.day + 120)
        let payable = ledger.statement()
        #expect(Self.totals(payable.json).first?["payableNow"] as? Int == 200)
        #expect(Self.totals(payable.json).first?["held"] as? Int == 0)
    }

    @Test func renewalsEarnAsOftenAsTheCampaignSaysAndARefundReversesExactlyTheCredit() throws {
        let ledger = try Ledger()
        let token = try ledger.bind()
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: token, id: "4000")) == 200)
        #expect(ledger.post(Ledger.notification("DID_RENEW", token: token, id: "4001", original: "4000",
                                                bought: Self.start + 31 * Self.day, originalBought: Self.start + 60,
                                                price: 12_990)) == 200)
        #expect(ledger.post(Ledger.notification("DID_RENEW", token: token, id: "4002", original: "4000",
                                                bought: Self.start + 62 * Self.day,
                                                originalBought: Self.start + 60)) == 200)
        let credits = try ledger.events("CommissionCredited")
        #expect(credits.map { $0["transactionId"] as? String } == ["4000", "4001"])
        #expect(credits.map { $0["amount"] as? Int } == [200, 260])
        #expect(credits.map { $0["saleType"] as? String } == ["first_purchase", "renewal"])

        let refund = Ledger.notification("REFUND", token: token, id: "4001", original: "4000",
                                         bought: Self.start + 31 * Self.day, originalBought: Self.start + 60)
        #expect(ledger.post(refund) == 200)
        #expect(ledger.post(Ledger.notification("REVOKE", token: token, id: "4001", original: "4000",
                                                bought: Self.start + 31 * Self.day,
                                                originalBought: Self.start + 60)) == 200)
        // A refund of a transaction never credited (4002) reverses nothing.
        #expect(ledger.post(Ledger.notification("REFUND", token: token, id: "4002", original: "4000",
                                                bought: Self.start + 62 * Self.day,
                                                originalBought: Self.start + 60)) == 200)
        let reversals = try ledger.events("CommissionReversed")
        try #require(reversals.count == 1)
        #expect(reversals[0]["transactionId"] as? String == "4001")
        #expect(reversals[0]["amount"] as? Int == 260)
        #expect(reversals[0]["reason"] as? String == "REFUND")
        let totals = Self.totals(ledger.statement().json)
        #expect(totals.first?["credited"] as? Int == 460)
        #expect(totals.first?["reversed"] as? Int == 260)
        #expect(totals.first?["net"] as? Int == 200)
    }

    @Test func aPurchaseAfterTheWindowOrWithoutAReferralEarnsNothing() throws {
        let ledger = try Ledger()
        let token = try ledger.bind()
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: token, id: "5000",
                                                bought: Self.start + 30 * Self.day + 1)) == 200)
        let unbound = ledger.fixture.store.appAccountToken(ledger.fixture.store.buyer())
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: unbound, id: "5001")) == 200)
        #expect(try ledger.events("CommissionCredited").isEmpty)
        #expect(try ledger.events("StoreNotificationReceived").count == 2)
    }

    @Test func concurrentDeliveriesOfOneTransactionCreditItOnce() throws {
        let ledger = try Ledger(commission: #"{"type":"fixed","amountMinor":500,"currency":"EUR"}"#)
        let token = try ledger.bind()
        let same = Ledger.notification("SUBSCRIBED", token: token, id: "6000")
        // Ten copies of one notification and ten other notifications about the same transaction, all at once.
        let bodies = Array(repeating: same, count: 10)
            + (0..<10).map { _ in Ledger.notification("OFFER_REDEEMED", token: token, id: "6000") }
        let statuses = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: bodies.count) { index in
            let status = ledger.post(bodies[index])
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 })
        let credits = try ledger.events("CommissionCredited")
        #expect(credits.count == 1)
        #expect(credits.first?["amount"] as? Int == 500)
        #expect(credits.first?["currency"] as? String == "EUR")
        #expect(try ledger.events("StoreNotificationReceived").count == 11)
    }

    @Test func statementsAreTheKeysProjectsOnlyAndTheirQueryIsChecked() throws {
        let ledger = try Ledger()
        let other = try ledger.fixture.apps.tenants.tenant()
        #expect(ledger.statement(key: other.key).status == 404)
        #expect(ledger.statement(affiliate: UUID().uuidString.lowercased()).status == 404)
        #expect(ledger.statement(affiliate: "not-a-uuid").status == 400)
        for (name, value) in [("from", "yesterday"), ("to", "2030-13-01T00:00:00Z"), ("limit", "0"),
                              ("limit", "1001"), ("after", "-1")] {
            let answer = ledger.statement([name: value])
            #expect(answer.status == 400, "\(name)=\(value)")
            #expect(answer.json.values.contains { ($0 as? String)?.contains("'\(name)'") == true }, "\(answer.json)")
        }
        // An inverted range is empty, not an error (no schema can state from < to).
        let reversed = ledger.statement(["from": "2030-01-02T00:00:00Z", "to": "2030-01-01T00:00:00Z"])
        #expect(reversed.status == 200)
        #expect((reversed.json["entries"] as? [Any])?.isEmpty == true)
        let empty = ledger.statement()
        #expect(empty.status == 200)
        #expect((empty.json["entries"] as? [Any])?.isEmpty == true)
        #expect((empty.json["totals"] as? [Any])?.isEmpty == true)
    }
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
