import Commands
import Domain
import Foundation
import HTTPServer

/// What every read of one app over a time range shares (`GET /s2s/v1/apps/{appId}/installs`, `…/sessions`,
/// `…/conversions`, `…/postbacks`): the app, which must be one of the key's project (another project's or org's app
/// is 404), and the range [from, to) — RFC 3339, `to` default now, `from` default `defaultDays` before `to`.
struct AppRangeRead {
    /// Days before `to` that `from` defaults to.
    static let defaultDays = 30

    let org: OrgID
    let app: AppID
    let from: Date
    let to: Date

    init(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String) throws {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        let to = try CommissionStatementHandler.instant(request.query["to"], name: "to") ?? environment.clock()
        let from = try CommissionStatementHandler.instant(request.query["from"], name: "from")
            ?? to.addingTimeInterval(-Double(Self.defaultDays) * 86400)
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        (org, app, self.from, self.to) = (tenant.orgId, scope.app, from, to)
    }
}
