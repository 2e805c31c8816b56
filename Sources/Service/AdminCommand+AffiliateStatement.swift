import Commands
import Domain
import EventStore
import Foundation

/// `handoff admin affiliate statement`: an affiliate's commission statement (docs/affiliates.md "Commission ledger")
/// as CSV or JSON lines, every page of it.
extension AdminCommand {
    /// How a statement is printed.
    enum StatementFormat: String {
        /// A header row, one row per entry, then one row per currency total (`entry` = `total`).
        case csv
        /// One JSON object per entry, then one per currency total (`"entry":"total"`).
        case jsonl
    }

    /// The CSV columns: an entry fills the first fourteen, a total `entry`, `currency` and the last five.
    static let statementColumns = [
        "entry", "event_id", "org_seq", "hash", "recorded_at", "transaction_id", "original_transaction_id",
        "campaign_id", "sale_type", "base_amount", "base_currency", "amount", "currency", "payable_after",
        "credited", "reversed", "net", "payable_now", "held",
    ]

    static func parseStatement(_ arguments: [String]) throws -> AffiliateCommand {
        let flags = try Flags(arguments, allowed: ["--affiliate", "--project", "--from", "--to", "--format"])
        let affiliate = try field(AffiliateID.parse(try flags.required("--affiliate"), field: "--affiliate"))
        let project = try flags.values["--project"].map { try field(ProjectID.parse($0, field: "--project")) }
        guard let format = StatementFormat(rawValue: try flags.required("--format")) else {
            throw UsageError(message: "--format must be csv or jsonl")
        }
        func instant(_ flag: String) throws -> Date? {
            try flags.values[flag].map { text in
                guard let date = RFC3339.parse(text) else {
                    throw UsageError(message: "\(flag) must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z")
                }
                return date
            }
        }
        let now = Date()
        let from = try instant("--from") ?? Date(timeIntervalSince1970: 0)
        let to = try instant("--to") ?? now
        return .statement(CommissionStatement.Query(affiliate: affiliate, project: project, org: nil, from: from,
                                                    to: to, asOf: now), format)
    }

    /// Every page of the statement `query` asks for, printed in `format`.
    static func statementText(_ query: CommissionStatement.Query, format: StatementFormat,
                              statement: CommissionStatement) throws -> String {
        var query = query
        var entries: [CommissionStatement.Entry] = []
        var totals: [CommissionStatement.Total] = []
        while true {
            guard let page = try statement.read(query) else {
                throw Refusal.notFound("no affiliate has this id", field: "--affiliate")
            }
            entries += page.entries
            totals = page.totals
            guard let next = page.nextAfter else { break }
            query.after = next
        }
        switch format {
        case .jsonl:
            let totalLines = totals.map { total -> String in
                guard case .object(var members) = total.json else { return total.json.canonicalText }
                members["entry"] = .string("total")
                return EventJSON.object(members).canonicalText
            }
            return (entries.map(\.json.canonicalText) + totalLines).joined(separator: "\n")
        case .csv:
            let rows = entries.map { entry in
                [entry.entry, entry.eventId, String(entry.orgSeq), entry.hash, entry.recordedAt, entry.transactionId,
                 entry.originalTransactionId, entry.campaignId, entry.saleType ?? "",
                 entry.baseAmount.map(String.init) ?? "", entry.baseCurrency ?? "", String(entry.amount),
                 entry.currency, entry.payableAfter ?? "", "", "", "", "", ""]
            } + totals.map { total in
                ["total", "", "", "", "", "", "", "", "", "", "", "", total.currency, "", String(total.credited),
                 String(total.reversed), String(total.net), String(total.payableNow), String(total.held)]
            }
            return ([statementColumns] + rows).map { $0.map(csvField).joined(separator: ",") }
                .joined(separator: "\n")
        }
    }

    /// A CSV field: quoted (with doubled quotes) when it holds a comma, a quote or a line break.
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
