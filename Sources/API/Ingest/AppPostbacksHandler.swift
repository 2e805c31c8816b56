import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /s2s/v1/apps/{appId}/postbacks?from=&to=` (docs/postbacks.md): an app of the key's project, its Apple
/// postbacks received in [from, to) — RFC 3339, `to` default now, `from` default 30 days before `to` — per
/// framework, ad network and source identifier; failed-signature copies only as a count. Another project's or org's
/// app is 404.
enum AppPostbacksHandler {
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment, appId text: String)
        throws -> Response
    {
        let range = try AppRangeRead(request, context, environment, appId: text)
        let (from, to) = (range.from, range.to)
        let read = try environment.model.ingest.postbacks.aggregates(org: range.org, app: range.app, from: from,
                                                                     to: to)
        return try JSONResponse.encode(Answer(
            appId: range.app.description, from: RFC3339.format(from), to: RFC3339.format(to),
            groups: read.groups.map {
                Answer.Group(kind: $0.kind.rawValue, adNetworkId: $0.adNetworkId,
                             sourceIdentifier: $0.sourceIdentifier, postbacks: $0.postbacks, won: $0.won,
                             development: $0.development)
            }, failed: read.failed))
    }

    private struct Answer: Encodable {
        struct Group: Encodable {
            var kind: String
            var adNetworkId: String
            var sourceIdentifier: String
            var postbacks: Int
            var won: Int
            var development: Int
        }

        var appId: String
        var from: String
        var to: String
        var groups: [Group]
        var failed: Int
    }
}
