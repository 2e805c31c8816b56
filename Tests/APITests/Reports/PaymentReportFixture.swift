import API
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport
import Workers

/// What the report tests share: asking for a report, signing heads, recording payments, and the report recomputed
/// from `handoff audit export` alone (docs/audit.md "Reports").
enum PaymentReportFixture {
    static let signer = ChainHeadSigner(seed: [UInt8](repeating: 21, count: 32))!

    /// `GET /s2s/v1/reports/payments` with `query`.
    static func report(_ api: APIResponder, key: String?, _ query: [String: String] = [:]) -> Response {
        var request = s2sRequest(.get, "/s2s/v1/reports/payments", key: key)
        request.query = query
        return api.respond(to: request)
    }

    /// Signs every due org of `database` as the checkpoint role would at `now`; how many heads it signed.
    @discardableResult
    static func sign(_ database: ScratchDatabase, at now: Date) throws -> Int {
        let pool = Pool(configuration: PostgresConfiguration(url: database.appURL, poolSize: 1))
        defer { pool.close() }
        return try Checkpoint(pool: pool, signer: signer, interval: 60, clock: { now }).signDue()
    }

    /// `POST /s2s/v1/payments` for `guid`; the status.
    static func pay(_ api: APIResponder, key: String, guid: String, id: String, amount: String, currency: String,
                    product: String) -> Int {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key, body: """
            {"guid":"\(guid)","paymentId":"\(id)","amount":\(amount),"currency":"\(currency)",\
            "productId":"\(product)","entitlement":"pro","expiresAt":null}
            """)).status
    }

    /// `POST /s2s/v1/payments/{id}/refund`; the status.
    static func refund(_ api: APIResponder, key: String, id: String) -> Int {
        api.respond(to: s2sRequest(.post, "/s2s/v1/payments/\(id)/refund", key: key)).status
    }

    /// A group's or total's figures in a fixed order: payments, gross, refunds, refunded amount, net, then (unless
    /// nil) commission credits, credited, reversals, reversed, commission net.
    typealias Figures = [Int]

    /// The figures keyed by group (`day` or `projectId/productId`, then the currency) and the totals by currency.
    struct Sums: Equatable, CustomStringConvertible {
        var groups: [String: Figures] = [:]
        var totals: [String: Figures] = [:]
        var description: String { "groups \(groups.sorted { $0.key < $1.key }), totals \(totals)" }
    }

    /// The report's figures as the API or `audit report --format jsonl` wrote them.
    static func sums(groups: [[String: Any]], totals: [[String: Any]]) -> Sums {
        func figures(_ line: [String: Any]) -> Figures {
            let payment = ["paymentCount", "gross", "refundCount", "refunds", "net"].map { line[$0] as! Int }
            let commission = ["commissionCreditCount", "commissionCredited", "commissionReversalCount",
                              "commissionReversed", "commissionNet"].compactMap { line[$0] as? Int }
            return payment + commission
        }
        func key(_ line: [String: Any]) -> String {
            let group = (line["day"] as? String) ?? "\(line["projectId"] as! String)/\(line["productId"] as! String)"
            return group + " " + (line["currency"] as! String)
        }
        return Sums(groups: Dictionary(uniqueKeysWithValues: groups.map { (key($0), figures($0)) }),
                    totals: Dictionary(uniqueKeysWithValues: totals.map { ($0["currency"] as! String, figures($0)) }))
    }

    /// The export's lines as JSON objects.
    static func lines(_ export: String) throws -> [[String: Any]] {
        try export.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// Every figure of the report, recomputed from a JSONL export alone: the events up to the trailer's signed head,
    /// recorded in [`from`, `to`) (canonical UTC text, compared as text; nil = open), grouped by UTC day or product.
    /// A refund counts with its payment's amount, currency and product; a commission has no product.
    static func recompute(export: String, byProduct: Bool, from: String? = nil, to: String? = nil) throws -> Sums {
        let lines = try lines(export)
        let trailer = try #require(lines.last { $0["kind"] as? String == "trailer" })
        guard let head = trailer["head"] as? [String: Any] else { return Sums() }
        let through = head["org_seq"] as! Int
        var payments: [String: [String: Any]] = [:]
        var sums = Sums()
        for event in lines where event["kind"] == nil && (event["org_seq"] as! Int) <= through {
            let type = event["event_type"] as! String
            let data = event["data"] as? [String: Any] ?? [:]
            if type == "PaymentRecorded", payments[data["paymentId"] as! String] == nil {
                payments[data["paymentId"] as! String] = data
            }
            let recordedAt = event["recorded_at"] as! String
            if let from, recordedAt < from { continue }
            if let to, recordedAt >= to { continue }
            let classified: (fact: [String: Any], slot: Int)?
            switch type {
            case "PaymentRecorded": classified = (data, 0)
            case "PaymentRefunded": classified = (payments[data["paymentId"] as! String]!, 2)
            case "CommissionCredited": classified = (data, 5)
            case "CommissionReversed": classified = (data, 7)
            default: classified = nil
            }
            guard case let (fact, slot)? = classified else { continue }
            let currency = fact["currency"] as! String
            let amount = fact["amount"] as! Int
            func add(_ figures: inout Figures, commission: Bool) {
                if figures.isEmpty { figures = Array(repeating: 0, count: commission ? 10 : 5) }
                figures[slot] += 1
                figures[slot + 1] += amount
                figures[4] = figures[1] - figures[3]
                if commission { figures[9] = figures[6] - figures[8] }
            }
            add(&sums.totals[currency, default: []], commission: true)
            if !byProduct {
                add(&sums.groups[String(recordedAt.prefix(10)) + " " + currency, default: []], commission: true)
            } else if slot < 5 {
                let key = "\(fact["projectId"] as! String)/\(fact["productId"] as! String) \(currency)"
                add(&sums.groups[key, default: []], commission: false)
            }
        }
        return sums
    }
}
