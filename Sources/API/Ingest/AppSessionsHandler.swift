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
        let range = try AppRangeRead(request, context, environment, appId: text)
        let (from, to) = (range.from, range.to)
        var days: [SessionCounts.Day] = []
        if from < to {
            // The last day touched is the one holding the last millisecond before `to`.
            days = try environment.model.ingest.sessions.perDay(
                org: range.org, app: range.app, from: Self.day(from), to: Self.day(to.addingTimeInterval(-0.001)))
        }
        return try JSONResponse.encode(Answer(
            appId: range.app.description, from: RFC3339.format(from), to: RFC3339.format(to),
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
