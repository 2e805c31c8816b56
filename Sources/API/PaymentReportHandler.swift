import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/reports/payments?from=&to=&groupBy=day|product` (issue 16 §4, docs/audit.md "Reports"): the key's
/// organization's payment report — per currency, payments, gross, refunds, net and affiliate commission, by UTC day
/// or by product, with totals — computed at the organization's latest signed chain head, which it names.
///
/// `from` and `to` (RFC 3339) bound `recorded_at` to [from, to), each unbounded when absent; `from` at or after `to`
/// is an empty report, not an error. `groupBy` defaults to `day`. The whole organization's payments, whichever of
/// its projects' keys asks (as `GET /s2s/v1/events`); never another organization's.
enum PaymentReportHandler {
    static func report(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let from = try CommissionStatementHandler.instant(request.query["from"], name: "from")
        let to = try CommissionStatementHandler.instant(request.query["to"], name: "to")
        let grouping = try grouping(request.query["groupBy"])
        let report = try environment.model.reads.read(by: tenant.prefix) { pool in
            try PaymentReport.read(PaymentReport.Query(from: from, to: to, grouping: grouping),
                                   org: tenant.orgId, log: environment.model.log, from: pool)
        }
        return JSONResponse.raw(report.jsonText)
    }

    /// `groupBy`: `day` (the default) or `product`.
    static func grouping(_ text: String?) throws -> PaymentReport.Grouping {
        guard let text else { return .day }
        guard let grouping = PaymentReport.Grouping(rawValue: text) else {
            throw APIError.validation("query parameter 'groupBy' must be day or product")
        }
        return grouping
    }
}
