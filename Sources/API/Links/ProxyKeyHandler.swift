import Commands
import Domain
import Foundation
import HTTPServer

/// `/s2s/v1/proxy-keys`: the key's organization's proxy keys (issue 21, docs/app-links.md "Proxy keys"), as
/// `handoff admin link proxy-key` issues them. A proxy key is the organization's, whichever project's secret key
/// manages it.
enum ProxyKeyHandler {
    /// `POST /s2s/v1/proxy-keys {"domains":[…]}` → 201 `{"proxyKeyId","proxyKey","header","domains"}`, the key
    /// shown once.
    static func create(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let domains = try JSONBody.decode(Body.self, from: request).domains
        let issued = try environment.model.links.issueProxyKey.run(
            org: tenant.orgId, domains: domains, metadata: AppHandler.metadata(tenant, context))
        return try JSONResponse.encode(issued, status: 201)
    }

    /// `GET /s2s/v1/proxy-keys` → `{"proxyKeys":[…]}`, revoked ones included, oldest first; never a key itself.
    static func list(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        return try JSONResponse.encode(["proxyKeys": try environment.model.links.proxyKeys.keys(org: tenant.orgId)])
    }

    /// `DELETE /s2s/v1/proxy-keys/{proxyKeyId}` → 200, the key with its `revokedAt`; again, the same answer. A key
    /// of another organization, or an id that is not a key's, is 404.
    static func revoke(_ request: Request, _ context: RequestContext, _ environment: Environment, id text: String)
        throws -> Response
    {
        let tenant = try context.tenant()
        guard let uuid = UUID(canonicalText: text), text.count == 36 else {
            throw APIError(status: 404, code: .notFound, message: "the organization has no proxy key with this id")
        }
        let key = try environment.model.links.revokeProxyKey.run(
            org: tenant.orgId, id: ProxyKeyID(uuid), metadata: AppHandler.metadata(tenant, context))
        return try JSONResponse.encode(key)
    }

    /// `{"domains":[…]}`: 1–20 host names (`ProxyDomains`, kept lowercased); unknown fields refused.
    struct Body: Decodable {
        var domains: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: JSONField.self)
            try JSONBody.refuseUnknownFields(in: container, allowed: ["domains"], what: "a field of a proxy key")
            let given = try container.decode([String].self, forKey: JSONField("domains"))
            guard given.count <= ProxyDomains.maxCount else {
                throw APIError(FieldRefusal(field: "domains", code: .proxyDomainFormat,
                                            rule: "hold 1 to \(ProxyDomains.maxCount) host names"))
            }
            switch ProxyDomains.parse(given) {
            case .success(let domains): self.domains = domains
            case .failure(let refusal): throw APIError(refusal)
            }
        }
    }
}
