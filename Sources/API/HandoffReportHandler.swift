import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/reports/handoff?from=&to=&offset=&limit=` (issue 18, docs/diagnostics.md "Handoff report"): the key's
/// project's payments recorded in [from, to) (each bound open when absent), the share identified within 1 h / 24 h
/// / 7 d by path, the median time to identification, fingerprint refusals by reason, and one page of the
/// unidentified payments (`offset`, default 0; `limit` 1–200, default 50) with their verdicts.
enum HandoffReportHandler {
    static let defaultLimit = 50
    static let maximumLimit = 200
    static let maximumOffset = HandoffReport.maxPayments

    static func report(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let from = try CommissionStatementHandler.instant(request.query["from"], name: "from")
        let to = try CommissionStatementHandler.instant(request.query["to"], name: "to")
        let offset = try number(request.query["offset"], name: "offset", range: 0...maximumOffset) ?? 0
        let limit = try number(request.query["limit"], name: "limit", range: 1...maximumLimit) ?? defaultLimit
        let query = HandoffReport.Query(from: from, to: to, offset: offset, limit: limit)
        let report = try environment.model.reads.read(by: tenant.prefix) { pool in
            try HandoffReport.read(query, project: tenant.projectId, org: tenant.orgId, log: environment.model.log,
                                   now: environment.clock(), from: pool)
        }
        return JSONResponse.raw(report.json.canonicalText)
    }

    /// A whole number in `range`, or nil when absent; refused naming the parameter.
    static func number(_ text: String?, name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text else { return nil }
        guard text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text),
              range.contains(value) else {
            throw APIError.validation("query parameter '\(name)' must be a whole number from \(range.lowerBound) "
                                      + "to \(range.upperBound)")
        }
        return value
    }
}
