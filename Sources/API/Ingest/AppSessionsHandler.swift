import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/sessions?from=&to=` (docs/app-ingest.md "Reading sessions"): an app of the key's
/// project, per UTC day its sessions, installs, screen views and events, for the UTC days the range [from, to) touches
/// — RFC 3339, `to` default now, `from` default 30 days before `to` (a `from` not before `to` touches no day). Only
/// days with rows are listed. Another project's or org's app is 404.
enum AppSessionsHandler {
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        let to = try CommissionStatementHandler.instant(request.query["to"], name: "to") ?? environment.clock()
        let from = try CommissionStatementHandler.instant(request.query["from"], name: "from")
            ?? to.addingTimeInterval(-Double(AppInstallsHandler.defaultRangeDays) * 86400)
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        var days: [SessionCounts.Day] = []
        if from < to {
            // The last day touched is the one holding the last millisecond before `to`.
            days = try environment.model.ingest.sessions.perDay(
                org: tenant.orgId, app: scope.app, from: Self.day(from), to: Self.day(to.addingTimeInterval(-0.001)))
        }
        return try JSONResponse.encode(Answer(
            appId: scope.app.description, from: RFC3339.format(from), to: RFC3339.format(to),
            days: days.map {
                Answer.Day(day: $0.day, sessions: $0.sessions, installs: $0.installs, screens: $0.screens,
                           events: $0.events)
            }))
    }

    /// `YYYY-MM-DD` of `date` in UTC.
    static func day(_ date: Date) -> String { String(RFC3339.format(date).prefix(10)) }

    private struct Answer: Encodable {
        struct Day: Encodable {
            var day: String
            var sessions: Int
            var installs: Int
            var screens: Int
            var events: Int
        }

        var appId: String
        var from: String
        var to: String
        var days: [Day]
    }
}
