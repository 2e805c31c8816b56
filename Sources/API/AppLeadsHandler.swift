import Commands
import Domain
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/leads?limit=&after=`: the leads an app of the key's project received, newest first:
/// `{"leads":[{leadId, form, email, firstName, message, marketingConsent, fillMs, eventId, sessionId, receivedAt}],
/// "nextAfter":N|null}` (docs/app-leads.md). `limit` 1–200 (default 50); `after` is a page's `nextAfter`. Another
/// project's or org's app is 404.
enum AppLeadsHandler {
    static let defaultLimit = 50

    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        let limit = try EventsHandler.integer(request.query["limit"], name: "limit", default: defaultLimit,
                                              range: 1...AppLeadLookup.maxLimit)
        let after = try request.query["after"].map {
            try EventsHandler.integer($0, name: "after", default: 0, range: 1...DeliveryHandler.maximumAfter)
        }
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        let page = try environment.identity().appLeads.page(org: tenant.orgId, app: scope.app, limit: limit,
                                                            after: after)
        return JSONResponse.raw(page.canonicalText)
    }
}
