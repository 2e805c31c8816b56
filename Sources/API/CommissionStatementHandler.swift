import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/affiliates/{affiliateId}/statement?from=&to=&after=&limit=` (issue 15, docs/affiliates.md
/// "Commission ledger"): an affiliate of the key's project — its credits and reversals recorded in [from, to), oldest
/// first, each with its event's `org_seq` and hash, and totals per currency (credited, reversed, net, payable now,
/// held). A range with `from` at or after `to` is empty, not an error. Another project's or organization's affiliate
/// is 404.
enum CommissionStatementHandler {
    static let defaultLimit = CommissionStatement.maxLimit
    /// The largest `after` taken (an org_seq).
    static let maximumAfter = DeliveryHandler.maximumAfter
    static let notFound = APIError(status: 404, code: .notFound, message: "no affiliate has this id")

    static func statement(_ request: Request, _ context: RequestContext, _ environment: Environment,
                          affiliateId text: String) throws -> Response {
        let affiliate: AffiliateID
        switch AffiliateID.parse(text) {
        case .success(let id): affiliate = id
        case .failure(let refusal): throw APIError(refusal)
        }
        let tenant = try context.tenant()
        let now = environment.clock()
        let from = try instant(request.query["from"], name: "from") ?? Date(timeIntervalSince1970: 0)
        let to = try instant(request.query["to"], name: "to") ?? now
        let limit = try EventsHandler.integer(request.query["limit"], name: "limit", default: defaultLimit,
                                              range: 1...CommissionStatement.maxLimit)
        let after = try request.query["after"].map {
            try EventsHandler.integer($0, name: "after", default: 0, range: 1...maximumAfter)
        }
        guard let page = try CommissionStatement(log: environment.model.log).read(CommissionStatement.Query(
            affiliate: affiliate, project: tenant.projectId, org: tenant.orgId, from: from, to: to, asOf: now,
            limit: limit, after: after)) else { throw notFound }
        return JSONResponse.raw(page.json(affiliate: affiliate, from: from, to: to, asOf: now).canonicalText)
    }

    /// An RFC 3339 query parameter, or nil when absent.
    static func instant(_ text: String?, name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = RFC3339.parse(text) else {
            throw APIError.validation("query parameter '\(name)' must be an RFC 3339 date-time, e.g. "
                                      + "2026-01-01T00:00:00Z")
        }
        return date
    }
}
