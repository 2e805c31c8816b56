import Commands
import Domain
import HTTPServer

/// The audit trail of the key's organization (issue 16 §1, docs/audit.md "Signed chain heads").
///
/// `GET /s2s/v1/audit/heads?after=<org_seq>&limit=`: `{"heads":[…],"nextAfter":N}` — the organization's signed chain
/// heads with `org_seq` > `after` (default 0), in order, at most `limit` (default 100, 1–1000), each as its signed
/// document (`hash`, `key_id`, `org_id`, `org_seq`, `recorded_at`, `signed_at`, `signature`); `nextAfter` is the last
/// `org_seq` shown (`after` when none). Only the key's own organization's heads, ever.
///
/// `GET /s2s/v1/audit/keys`: `{"keys":[…]}` — every public key of the deployment's audit key, old ones included
/// (`algorithm`, `first_used_at`, `key_id`, `public_key` in hex, `public_key_pem`).
enum AuditHandler {
    static let defaultLimit = 100

    static func heads(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let tenant = try context.tenant()
        let after = try EventsHandler.integer(request.query["after"], name: "after", default: 0,
                                              range: 0...EventsHandler.maximumAfter)
        let limit = try EventsHandler.integer(request.query["limit"], name: "limit", default: defaultLimit,
                                              range: 1...AuditTrail.maxLimit)
        return JSONResponse.raw(try environment.model.audit.heads(org: tenant.orgId, after: after, limit: limit)
            .canonicalText)
    }

    static func keys(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        _ = try context.tenant()
        return JSONResponse.raw(try environment.model.audit.keys().canonicalText)
    }
}
