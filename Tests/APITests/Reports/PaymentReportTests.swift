import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The payment report (issue 16 §4): every figure of `GET /s2s/v1/reports/payments` and of `handoff audit report` —
/// payments, gross, refunds, net and affiliate commission per currency, by day or product — is recomputed from
/// `handoff audit export` alone, at the signed chain head the report names.
@Suite struct PaymentReportTests {
    typealias Ledger = CommissionLedgerTests.Ledger
    typealias Fixture = PaymentReportFixture
    static let start = CommissionLedgerTests.start
    static let day = CommissionLedgerTests.day

    /// An org with store sales (credited and reversed commission in USD and EUR, a store refund), S2S payments in
    /// three currencies and two products with one refunded, a signed head, then one more payment after the head.
    static func history() throws -> Ledger {
        let ledger = try Ledger()
        let (api, key) = (ledger.fixture.apps.api, ledger.fixture.tenant.key)
        let first = try ledger.bind(guid: ledger.fixture.store.buyer())
        let second = try ledger.bind(guid: ledger.fixture.store.buyer())
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: first, id: "8000")) == 200)
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: second, id: "8100", price: 4_990,
                                                currency: "EUR")) == 200)
        #expect(ledger.post(Ledger.notification("REFUND", token: second, id: "8100", price: 4_990,
                                                currency: "EUR")) == 200)
        let guid = ledger.fixture.store.buyer()
        let payments = [("pi_a", "999", "USD", "pro_monthly"), ("pi_b", "1999", "USD", "pro_year"),
                        ("pi_c", "500", "EUR", "pro_monthly"), ("pi_d", "120", "JPY", "pro_monthly")]
        for (id, amount, currency, product) in payments {
            #expect(Fixture.pay(api, key: key, guid: guid, id: id, amount: amount, currency: currency,
                                product: product) == 200)
        }
        #expect(Fixture.refund(api, key: key, id: "pi_b") == 200)
        #expect(try Fixture.sign(ledger.fixture.apps.tenants.database, at: Date()) >= 1)
        // After the head: not in any report until the next head.
        #expect(Fixture.pay(api, key: key, guid: guid, id: "pi_late", amount: "777", currency: "USD",
                            product: "pro_monthly") == 200)
        #expect(Fixture.refund(api, key: key, id: "pi_a") == 200)
        return ledger
    }

    @Test func everyFigureIsRecomputedFromTheAuditExportAloneAtTheSignedHeadItNames() throws {
        let ledger = try Self.history()
        let (api, key) = (ledger.fixture.apps.api, ledger.fixture.tenant.key)
        let database = ledger.fixture.apps.tenants.database
        let org = ledger.fixture.tenant.org
        let export = try database.handoff(["audit", "export", "--org", org, "--format", "jsonl"])
        try #require(export.status == .exited(0), "\(export.stderr)")
        let trailer = try #require(try Fixture.lines(export.stdout).last)
        let head = try #require(trailer["head"] as? [String: Any])

        let byDay = Fixture.report(api, key: key)
        #expect(byDay.status == 200)
        #expect(byDay.headers["Content-Type"] == "application/json")
        let json = jsonObject(byDay)
        #expect(json["orgId"] as? String == org)
        #expect(json["groupBy"] as? String == "day")
        #expect(json["from"] is NSNull && json["to"] is NSNull)
        #expect(NSDictionary(dictionary: json["head"] as? [String: Any] ?? [:]).isEqual(to: head))
        #expect(json["throughOrgSeq"] as? Int == head["org_seq"] as? Int)
        let expected = try Fixture.recompute(export: export.stdout, byProduct: false)
        let reported = Fixture.sums(groups: json["groups"] as! [[String: Any]],
                                    totals: json["totals"] as! [[String: Any]])
        #expect(reported == expected)
        // The figures themselves. USD: pi_a, pi_b and the store sale 8000; pi_late and pi_a's refund came after
        // the head. EUR: pi_c and the store sale 8100, refunded (its commission credited and reversed).
        let usd = try #require(reported.totals["USD"])
        let storeUSD = 999
        #expect(Array(usd[0...4]) == [3, 999 + 1999 + storeUSD, 1, 1999, 999 + storeUSD])
        #expect(Array(usd[5...]) == [1, 200, 0, 0, 200])
        #expect(reported.totals["EUR"] == [2, 500 + 499, 1, 499, 500, 1, 100, 1, 100, 0])
        #expect(reported.totals["JPY"] == [1, 120, 0, 0, 120, 0, 0, 0, 0, 0])

        let byProduct = jsonObject(Fixture.report(api, key: key, ["groupBy": "product"]))
        let products = Fixture.sums(groups: byProduct["groups"] as! [[String: Any]],
                                    totals: byProduct["totals"] as! [[String: Any]])
        #expect(products == (try Fixture.recompute(export: export.stdout, byProduct: true)))
        #expect(products.totals == reported.totals)
        let project = ledger.fixture.tenant.project
        #expect(products.groups["\(project)/pro_year USD"] == [1, 1999, 1, 1999, 0])
        #expect((byProduct["groups"] as! [[String: Any]]).allSatisfy { $0["commissionCredited"] is NSNull })

        // A range starting at the S2S refund: the refund counts (its payment's amount), its payment does not.
        let refundAt = try #require(try Fixture.lines(export.stdout).first {
            $0["event_type"] as? String == "PaymentRefunded" && ($0["data"] as? [String: Any])?["paymentId"]
                as? String == "pi_b"
        }?["recorded_at"] as? String)
        let ranged = jsonObject(Fixture.report(api, key: key, ["from": refundAt]))
        let from = String(refundAt.prefix(23)) + "000Z"
        #expect(ranged["from"] as? String == from, "bounds are kept to the millisecond")
        let rangedSums = Fixture.sums(groups: ranged["groups"] as! [[String: Any]],
                                      totals: ranged["totals"] as! [[String: Any]])
        #expect(rangedSums == (try Fixture.recompute(export: export.stdout, byProduct: false, from: from)))
        #expect(rangedSums.totals["USD"] == [0, 0, 1, 1999, -1999, 0, 0, 0, 0, 0])
        let inverted = jsonObject(Fixture.report(api, key: key, ["from": "2031-01-01T00:00:00Z",
                                                                  "to": "2030-01-01T00:00:00Z"]))
        #expect((inverted["groups"] as? [Any])?.isEmpty == true && (inverted["totals"] as? [Any])?.isEmpty == true)

        // The CLI computes the same report: JSONL (report line, groups, totals) and CSV (CRLF, head on every row).
        let jsonl = try database.handoff(["audit", "report", "--org", org, "--format", "jsonl"])
        try #require(jsonl.status == .exited(0), "\(jsonl.stderr)")
        let cliLines = try Fixture.lines(jsonl.stdout)
        #expect(cliLines.first?["kind"] as? String == "report")
        #expect(cliLines.first?["throughOrgSeq"] as? Int == head["org_seq"] as? Int)
        #expect(Fixture.sums(groups: cliLines.filter { $0["kind"] as? String == "group" },
                             totals: cliLines.filter { $0["kind"] as? String == "total" }) == expected)
        #expect(jsonl.stdout.hasSuffix("}\n"))

        let csv = try database.handoff(["audit", "report", "--org", org, "--group-by", "product", "--format", "csv"])
        try #require(csv.status == .exited(0), "\(csv.stderr)")
        #expect(csv.stdout.hasSuffix("\r\n"))
        let rows = csv.stdout.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(rows.first?.joined(separator: ",") == """
            row,day,project_id,product_id,currency,payment_count,gross,refund_count,refunds,net,\
            commission_credit_count,commission_credited,commission_reversal_count,commission_reversed,\
            commission_net,head_org_seq,head_hash
            """)
        let year = try #require(rows.first { $0[3] == "pro_year" })
        #expect(year.map(String.init) == ["group", "", project, "pro_year", "USD", "1", "1999", "1", "1999", "0",
                                          "", "", "", "", "", "\(head["org_seq"] as! Int)", head["hash"] as! String])
        let eur = try #require(rows.first { $0[0] == "total" && $0[4] == "EUR" })
        #expect(Array(eur[5...14]).map(String.init) == ["2", "999", "1", "499", "500", "1", "100", "1", "100", "0"])
    }
}
