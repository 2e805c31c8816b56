import Commands
import Domain
import Foundation
import HTTPServer

/// The handoff dashboard (issue 18, docs/diagnostics.md "Dashboard"): a short-lived signed link minted with a secret
/// key, and the read-only page it opens.
enum DashboardHandler {
    /// How far back the dashboard's report reaches.
    static let window: TimeInterval = 30 * 86400

    /// `POST /s2s/v1/dashboard-links`: 200 `{"url","token","expiresAt"}` for the key's project, valid one hour. Any
    /// body is ignored.
    static func createLink(_ request: Request, _ context: RequestContext, _ environment: Environment) throws
        -> Response
    {
        let tenant = try context.tenant()
        let links = try links(environment)
        let signed = links.sign(project: tenant.projectId, org: tenant.orgId, now: environment.clock())
        return JSONResponse.raw(EventJSON.object([
            "url": .string(environment.publicBaseURL + "/dashboard/" + signed.token), "token": .string(signed.token),
            "expiresAt": .string(PaymentFields.text(signed.expiresAt)),
        ]).canonicalText)
    }

    /// `GET /dashboard/{token}`: the page (English or Russian by `Accept-Language`), or the one 404 page for a bad,
    /// tampered or expired link, or one whose project no longer exists.
    static func page(_ request: Request, _ environment: Environment, token: String) throws -> Response {
        let now = environment.clock()
        guard let claims = try links(environment).open(token, now: now),
              try environment.projects.project(claims.project, org: claims.org) != nil else {
            return DashboardPageHTML.notFound
        }
        // The last 30 days by the database's clock, where `recorded_at` comes from.
        let query = HandoffReport.Query(from: nil, to: nil, offset: 0, limit: 50, recentSeconds: window)
        // Nobody's own write to wait for: the replica when there is one (`DATABASE_READ_URL`).
        let report = try environment.model.reads.read(by: nil) { pool in
            try HandoffReport.read(query, project: claims.project, org: claims.org, log: environment.model.log,
                                   now: now, from: pool)
        }
        return DashboardPageHTML.render(report, language: PageLanguage.choose(
            acceptLanguage: request.headers["Accept-Language"]), now: now)
    }

    /// The link codec under the identity secrets (503 without them, as every route that needs them).
    static func links(_ environment: Environment) throws -> DashboardLinks {
        let secrets = try environment.identity().secrets
        return DashboardLinks(masterKey: secrets.masterKey, previousMasterKeys: secrets.previousMasterKeys)
    }
}
