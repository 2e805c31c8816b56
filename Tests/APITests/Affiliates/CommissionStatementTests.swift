import Foundation
import Testing
import TestSupport

/// Statements reconcile to the log (issue 15): every total of `GET /s2s/v1/affiliates/{id}/statement` and of
/// `handoff admin affiliate statement` is recomputed from `handoff audit export` alone (docs/affiliates.md,
/// "Reconciling from the audit export alone").
@Suite struct CommissionStatementTests {
    typealias Ledger = CommissionLedgerTests.Ledger
    static let start = CommissionLedgerTests.start
    static let day = CommissionLedgerTests.day

    /// Per currency: credited, reversed, payable as of `asOf` — from the export's ledger events of `affiliate`.
    static func recompute(export: String, affiliate: String, asOf: Date) throws -> [String: [Int]] {
        var credits: [String: (amount: Int, currency: String, payable: Bool)] = [:]
        var totals: [String: [Int]] = [:]
        var reversals: [(credit: String, amount: Int, currency: String)] = []
        for line in export.split(separator: "\n") {
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let type = event["event_type"] as? String,
                  type == "CommissionCredited" || type == "CommissionReversed",
                  let data = event["data"] as? [String: Any], data["affiliateId"] as? String == affiliate
            else { continue }
            let amount = data["amount"] as! Int
            let currency = data["currency"] as! String
            var sums = totals[currency] ?? [0, 0, 0]
            if type == "CommissionCredited" {
                let payable = RFC3339Text.date(data["payableAfter"] as! String)! <= asOf
                credits[event["event_id"] as! String] = (amount, currency, payable)
                sums[0] += amount
                if payable { sums[2] += amount }
            } else {
                sums[1] += amount
                reversals.append((data["creditEventId"] as! String, amount, currency))
            }
            totals[currency] = sums
        }
        for reversal in reversals where credits[reversal.credit]?.payable == true {
            totals[reversal.currency]![2] -= reversal.amount
        }
        return totals
    }

    /// A statement's totals in the same shape.
    static func totals(_ list: [[String: Any]]) -> [String: [Int]] {
        Dictionary(uniqueKeysWithValues: list.map { total in
            (total["currency"] as! String,
             [total["credited"] as! Int, total["reversed"] as! Int, total["payableNow"] as! Int])
        })
    }

    @Test func everyTotalIsRecomputedFromTheAuditExportAlone() throws {
        let ledger = try Ledger()
        let first = try ledger.bind()
        let second = try ledger.bind()
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: first, id: "7000")) == 200)
        #expect(ledger.post(Ledger.notification("SUBSCRIBED", token: second, id: "7100", price: 4_990,
                                                currency: "EUR")) == 200)
        #expect(ledger.post(Ledger.notification("REFUND", token: second, id: "7100", price: 4_990,
                                                currency: "EUR")) == 200)
        ledger.clock.set(Self.start + 31 * Self.day)
        #expect(ledger.post(Ledger.notification("DID_RENEW", token: first, id: "7001", original: "7000",
                                                bought: Self.start + 31 * Self.day,
                                                originalBought: Self.start + 60)) == 200)

        let database = ledger.fixture.apps.tenants.database
        let export = try database.handoff(["audit", "export", "--org", ledger.fixture.tenant.org, "--format", "jsonl"])
        try #require(export.status == .exited(0), "\(export.stderr)")

        let api = ledger.statement()
        try #require(api.status == 200)
        let asOf = RFC3339Text.date(api.json["asOf"] as! String)!
        let expected = try Self.recompute(export: export.stdout, affiliate: ledger.affiliate, asOf: asOf)
        #expect(expected == ["USD": [400, 0, 200], "EUR": [100, 100, 0]])
        #expect(Self.totals(api.json["totals"] as! [[String: Any]]) == expected)
        let entries = api.json["entries"] as! [[String: Any]]
        #expect(entries.map { $0["entry"] as? String } == ["credit", "credit", "reversal", "credit"])

        // The CLI's own clock is today's: every credit of 2030 is still held, and the sums are the same.
        let cli = try database.admin(["affiliate", "statement", "--affiliate", ledger.affiliate, "--format", "jsonl"])
        try #require(cli.status == .exited(0), "\(cli.stderr)")
        let lines = try cli.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let cliTotals = lines.filter { $0["entry"] as? String == "total" }
        #expect(lines.count - cliTotals.count == 4)
        #expect(Self.totals(cliTotals)
            == (try Self.recompute(export: export.stdout, affiliate: ledger.affiliate, asOf: Date())))

        let csv = try database.admin(["affiliate", "statement", "--affiliate", ledger.affiliate, "--format", "csv",
                                      "--from", "2020-01-01T00:00:00Z"])
        try #require(csv.status == .exited(0), "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?.first == "entry")
        let usd = rows.first { $0.first == "total" && $0[12] == "USD" }
        #expect(usd.map { Array($0[14...]) } == ["400", "0", "400", "0", "400"])

        let other = try ledger.fixture.apps.tenants.tenant()
        let refused = try database.admin(["affiliate", "statement", "--affiliate", UUID().uuidString.lowercased(),
                                          "--project", other.project, "--format", "csv"])
        #expect(refused.status == .exited(1))
        let foreign = try database.admin(["affiliate", "statement", "--affiliate", ledger.affiliate,
                                          "--project", other.project, "--format", "jsonl"])
        #expect(foreign.status == .exited(1))
        #expect(foreign.stdout.isEmpty)
        let bad = try database.admin(["affiliate", "statement", "--affiliate", ledger.affiliate, "--format", "xml"])
        #expect(bad.status == .exited(2))
    }
}

/// RFC 3339 text with milliseconds, as the API and events write instants.
enum RFC3339Text {
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
