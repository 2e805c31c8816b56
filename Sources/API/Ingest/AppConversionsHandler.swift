import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/conversions?from=&to=` (docs/app-ingest.md "Conversions"): an app of the key's project,
/// its confirmed conversions per UTC day of the purchase and tier of the hinting install, with the confirmed amounts
/// per currency, in [from, to) — RFC 3339, `to` default now, `from` default 30 days before `to`. Another project's or
/// org's app is 404.
enum AppConversionsHandler {
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let range = try AppRangeRead(request, context, environment, appId: text)
        let (from, to) = (range.from, range.to)
        let days = try environment.model.ingest.conversions.perDay(org: range.org, app: range.app, from: from,
                                                                   to: to)
        return try JSONResponse.encode(Answer(
            appId: range.app.description, from: RFC3339.format(from), to: RFC3339.format(to),
            days: days.map { day in
                Answer.Day(day: day.day, tiers: Dictionary(uniqueKeysWithValues: day.tiers.map { ($0.rawValue, $1) }),
                           total: day.tiers.values.reduce(0, +), amounts: day.amounts)
            }))
    }

    private struct Answer: Encodable {
        struct Day: Encodable {
            var day: String
            var tiers: [String: Int]
            var total: Int
            var amounts: [String: Int]
        }

        var appId: String
        var from: String
        var to: String
        var days: [Day]
    }
}
