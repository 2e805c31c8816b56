import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/affiliates`: the key's project's affiliates (issue 15), each with its link
/// (`PUBLIC_BASE_URL/a/<REFCODE>?p=<projectId>`). A campaign of another project or organization is answered 404,
/// exactly as an id no campaign has.
enum AffiliateHandler {
    /// `POST /s2s/v1/affiliates` → 201, the affiliate with its referral code (given or minted) and link.
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let draft = try JSONBody.decode(AffiliateBody.Affiliate.self, from: request).draft
        do {
            let affiliate = try environment.model.affiliates.createAffiliate.run(
                project: tenant.projectId, org: tenant.orgId, draft: draft,
                metadata: AppHandler.metadata(tenant, context))
            return try JSONResponse.encode(affiliate.linked(base: environment.publicBaseURL), status: 201)
        } catch let refusal as Refusal where refusal.kind == .notFound && refusal.field == "project" {
            // The key's own project is gone (deleted under a live key): the key speaks for nothing.
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
    }

    /// `GET /s2s/v1/affiliates` → `{"affiliates":[…]}`, oldest first.
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        guard let affiliates = try environment.model.affiliates.lookup.affiliates(project: tenant.projectId,
                                                                                  org: tenant.orgId) else {
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
        return try JSONResponse.encode(["affiliates": affiliates.map { $0.linked(base: environment.publicBaseURL) }])
    }
}
