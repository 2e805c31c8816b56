import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/campaigns`: the key's project's affiliate campaigns (issue 15).
enum AffiliateCampaignHandler {
    /// `POST /s2s/v1/campaigns` → 201, the campaign.
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let terms = try JSONBody.decode(AffiliateBody.Campaign.self, from: request).terms
        do {
            let campaign = try environment.model.affiliates.createCampaign.run(
                project: tenant.projectId, org: tenant.orgId, terms: terms,
                metadata: AppHandler.metadata(tenant, context))
            return try JSONResponse.encode(campaign, status: 201)
        } catch let refusal as Refusal where refusal.kind == .notFound {
            // The key's own project is gone (deleted under a live key): the key speaks for nothing.
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
    }

    /// `GET /s2s/v1/campaigns` → `{"campaigns":[…]}`, oldest first.
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        guard let campaigns = try environment.model.affiliates.lookup.campaigns(project: tenant.projectId,
                                                                                org: tenant.orgId) else {
            throw APIError.unauthorized("the secret key is unknown or revoked")
        }
        return try JSONResponse.encode(["campaigns": campaigns])
    }
}
