import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/installs?from=&to=` (docs/app-ingest.md "Reading installs"): an app of the key's
/// project, its installs per UTC day of the first open and tier, in [from, to) — RFC 3339, `to` default now, `from`
/// default 30 days before `to` (a `from` not before `to` is an empty range). Another project's or org's app is 404.
enum AppInstallsHandler {
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let range = try AppRangeRead(request, context, environment, appId: text)
        let (from, to) = (range.from, range.to)
        let days = try environment.model.ingest.installs.perDay(org: range.org, app: range.app, from: from, to: to)
        return try JSONResponse.encode(Answer(
            appId: range.app.description, from: RFC3339.format(from), to: RFC3339.format(to),
            days: days.map { day in
                Answer.Day(day: day.day, tiers: Dictionary(uniqueKeysWithValues: day.tiers.map { ($0.rawValue, $1) }),
                           total: day.tiers.values.reduce(0, +))
            }))
    }

    private struct Answer: Encodable {
        struct Day: Encodable {
            var day: String
            var tiers: [String: Int]
            var total: Int
        }

        var appId: String
        var from: String
        var to: String
        var days: [Day]
    }
}
