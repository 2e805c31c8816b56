import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/export?day=YYYY-MM-DD` (docs/app-ingest.md "Export"): an app of the key's project, the
/// raw ingest rows of one UTC day as JSON Lines (`application/x-ndjson`), streamed in pages. `day` is required; a
/// day that is not in the calendar (`2026-02-30`) or has no rows is an empty body. Another project's or org's app is
/// 404.
enum AppExportHandler {
    /// The shape of `day`: four digits, a month 01–12, a day 01–31.
    static let dayPattern = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"

    static func export(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let scope = try AppHandler.scope(text, context)
        let tenant = try context.tenant()
        guard let day = request.query["day"] else {
            throw APIError.validation("query parameter 'day' is required (YYYY-MM-DD, a UTC day)")
        }
        guard day.wholeMatch(of: try Regex(dayPattern)) != nil else {
            throw APIError.validation("query parameter 'day' must be a UTC day as YYYY-MM-DD")
        }
        guard try environment.apps().lookup.app(scope.app, org: tenant.orgId, project: scope.project) != nil else {
            throw AppHandler.notFound
        }
        let headers = Headers([("Content-Type", "application/x-ndjson"), ("Cache-Control", "no-store"),
                               ("Content-Disposition", "attachment; filename=\"\(scope.app)-\(day).jsonl\"")])
        guard isCalendarDay(day) else { return Response(status: 200, headers: headers) }
        let pager = environment.model.ingest.export.pager(org: tenant.orgId, app: scope.app, day: day)
        // The first page is read before answering, so an outage is a 503, not a 200 with a cut body.
        var first = try pager.next()
        return Response(status: 200, headers: headers, stream: ResponseStream {
            if let page = first {
                first = nil
                return page
            }
            return try pager.next()
        })
    }

    /// Whether `day` (already of the pattern's shape) names a day of the Gregorian calendar: year 0000 is none (the
    /// calendar goes from 1 BC to AD 1; Postgres refuses it as out of range).
    static func isCalendarDay(_ day: String) -> Bool {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return false }
        let (year, month, date) = (parts[0], parts[1], parts[2])
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return year >= 1 && (1...12).contains(month) && (1...lengths[month - 1]).contains(date)
    }
}
