import Commands
import Domain
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/deliveries?limit=&after=`: every forward attempt of an app of the key's project, newest
/// first: `{"deliveries":[{…destination, attempt, delivered, status, durationMs, answer…}],"nextAfter":N|null}`.
/// `limit` 1–200 (default 50); `after` is a page's `nextAfter`. Another project's or org's app is 404.
enum DeliveryHandler {
    static let defaultLimit = 50
    /// The largest `after` taken (an org_seq).
    static let maximumAfter = 999_999_999_999

    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        let limit = try EventsHandler.integer(request.query["limit"], name: "limit", default: defaultLimit,
                                              range: 1...DeliveryLog.maxLimit)
        let after = try request.query["after"].map {
            try EventsHandler.integer($0, name: "after", default: 0, range: 1...maximumAfter)
        }
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        let page = try DeliveryLog(log: environment.model.log).list(org: tenant.orgId, appId: scope.app.description,
                                                                   limit: limit, after: after)
        return JSONResponse.raw(page.json.canonicalText)
    }
}
