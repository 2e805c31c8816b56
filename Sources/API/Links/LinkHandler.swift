import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/links`: the key's project's go links (issue 21, docs/app-links.md). An app of another project or
/// organization is answered 404, exactly as an id no app has.
enum LinkHandler {
    /// `POST /s2s/v1/links` → 201, the link with its global token and its URL (`PUBLIC_BASE_URL/v1/go/<token>`).
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let draft = try JSONBody.decode(LinkBody.self, from: request).draft
        do {
            let link = try environment.model.links.createLink.run(
                project: tenant.projectId, org: tenant.orgId, draft: draft,
                metadata: AppHandler.metadata(tenant, context))
            return try JSONResponse.encode(link.shared(base: environment.publicBaseURL), status: 201)
        } catch let refusal as Refusal where refusal.kind == .notFound && refusal.field == "project" {
            // The key's own project is gone (deleted under a live key): the key speaks for nothing.
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
    }

    /// `GET /s2s/v1/links` → `{"links":[…]}`, oldest first.
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let links = try environment.model.links.lookup.links(project: tenant.projectId, org: tenant.orgId)
        return try JSONResponse.encode(["links": links.map { $0.shared(base: environment.publicBaseURL) }])
    }
}
