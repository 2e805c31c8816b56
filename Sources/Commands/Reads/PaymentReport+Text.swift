import Crypto
import Domain
import EventStore
import Foundation

/// The report's three forms: the API's JSON document, the CLI's JSONL and CSV (docs/audit.md "Reports").
///
/// Every form is canonical JSON where it is JSON (members sorted, no whitespace, as the export writes), with amounts
/// as JSON integers of any size: they are written from their decimal text, never through a 64-bit integer.
extension PaymentReport {
    /// `{"from","groupBy","groups":[…],"head","orgId","throughOrgSeq","to","totals":[…]}`.
    public var jsonText: String {
        var members = headerMembers
        members["groups"] = .array(groups.map { .object($0.members(isTotal: false)) })
        members["totals"] = .array(totals.map { .object($0.members(isTotal: true)) })
        return ReportJSON.object(members).text
    }

    /// One line per row, each ending in `\n`: the report line (`"kind":"report"`: org, range, grouping, head,
    /// `throughOrgSeq`), the groups (`"kind":"group"`), then the totals (`"kind":"total"`).
    public var jsonlText: String {
        var header = headerMembers
        header["kind"] = .text("report")
        func line(_ kind: String, _ row: PaymentReportLine) -> ReportJSON {
            var members = row.members(isTotal: kind == "total")
            members["kind"] = .text(kind)
            return .object(members)
        }
        let lines = [ReportJSON.object(header)] + groups.map { line("group", $0) } + totals.map { line("total", $0) }
        return lines.map { $0.text + "\n" }.joined()
    }

    /// The CSV column row.
    public static let csvColumns = [
        "row", "day", "project_id", "product_id", "currency", "payment_count", "gross", "refund_count", "refunds",
        "net", "commission_credit_count", "commission_credited", "commission_reversal_count", "commission_reversed",
        "commission_net", "head_org_seq", "head_hash",
    ]

    /// RFC 4180: the column row, the groups (`row` = `group`), the totals (`row` = `total`), every row ending in
    /// CRLF. A field not applicable is empty; `head_org_seq` and `head_hash` (the head's, on every row) are `0` and
    /// empty without a head.
    public var csvText: String {
        let head = [String(throughOrgSeq), head.map { Hex.encode($0.hash) } ?? ""]
        func row(_ kind: String, _ line: PaymentReportLine) -> [String] {
            let commission = line.commission
            return [kind, line.day ?? "", line.projectId ?? "", line.productId ?? "", line.currency,
                    String(line.paymentCount), line.gross, String(line.refundCount), line.refunds, line.net,
                    commission.map { String($0.creditCount) } ?? "", commission?.credited ?? "",
                    commission.map { String($0.reversalCount) } ?? "", commission?.reversed ?? "",
                    commission?.net ?? ""] + head
        }
        let rows = [Self.csvColumns] + groups.map { row("group", $0) } + totals.map { row("total", $0) }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    private var headerMembers: [String: ReportJSON] {
        [
            "orgId": .text(org.lowercasedText),
            "from": query.from.map { .text(PaymentReport.instantText($0)) } ?? .null,
            "to": query.to.map { .text(PaymentReport.instantText($0)) } ?? .null,
            "groupBy": .text(query.grouping.rawValue),
            "head": head.map { .raw($0.json.canonicalText) } ?? .null,
            "throughOrgSeq": .number(String(throughOrgSeq)),
        ]
    }

    /// Quoted (quotes doubled) when it holds a comma, a quote, CR or LF, as the export's CSV.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension PaymentReportLine {
    /// The row's members: the key (groups only), the currency, the figures.
    fileprivate func members(isTotal: Bool) -> [String: ReportJSON] {
        var members: [String: ReportJSON] = [
            "currency": .text(currency), "paymentCount": .number(String(paymentCount)), "gross": .number(gross),
            "refundCount": .number(String(refundCount)), "refunds": .number(refunds), "net": .number(net),
            "commissionCreditCount": commission.map { .number(String($0.creditCount)) } ?? .null,
            "commissionCredited": commission.map { .number($0.credited) } ?? .null,
            "commissionReversalCount": commission.map { .number(String($0.reversalCount)) } ?? .null,
            "commissionReversed": commission.map { .number($0.reversed) } ?? .null,
            "commissionNet": commission.map { .number($0.net) } ?? .null,
        ]
        if !isTotal {
            members["day"] = day.map(ReportJSON.text) ?? .null
            members["projectId"] = projectId.map(ReportJSON.text) ?? .null
            members["productId"] = productId.map(ReportJSON.text) ?? .null
        }
        return members
    }
}

/// Canonical JSON whose numbers are decimal text (any size) and which may embed canonical text as it is.
private indirect enum ReportJSON {
    case null
    case text(String)
    /// An integer's decimal text.
    case number(String)
    /// Canonical JSON text, embedded unchanged.
    case raw(String)
    case array([ReportJSON])
    case object([String: ReportJSON])

    var text: String {
        switch self {
        case .null: return "null"
        case .text(let value): return EventJSON.string(value).canonicalText
        case .number(let digits), .raw(let digits): return digits
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return "{" + sorted.map { EventJSON.string($0.key).canonicalText + ":" + $0.value.text }
                .joined(separator: ",") + "}"
        }
    }
}
