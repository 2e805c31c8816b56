import Commands
import Domain
import Foundation
import HTTPServer

/// `GET /public/handoff/resolve?code=`: exchanges a handoff code or install token, once, for its buyer's guid and
/// the project where the payment was recorded.
///
/// Answers `{"success":true,"data":{"guid","projectId"}}`. A missing, malformed (lowercase, padded), unknown,
/// expired or already used code answers the same 404 bytes. Limits, in order: 10 requests per minute per client IP
/// (429 + `Retry-After`), then the global failed-lookup budget (`FailedLookupBudget`: a recently failed IP is refused
/// with 429 while the budget is exhausted), both asked in one Redis round trip; both fail closed (503) without Redis.
enum ResolveHandler {
    static func resolve(_ request: Request, _ context: RequestContext, _ environment: Environment) throws -> Response {
        let client = environment.clientKey(request)
        if let limit = environment.resolveLimit,
           let seconds = environment.rateLimiter.rememberedRetryAfter(limit, key: client) {
            // A client this process saw limited is refused from memory before anything else (no keyed hash of its
            // address, no Redis): a flood of refused requests costs near what /healthz costs.
            throw APIError.rateLimited(retryAfterSeconds: seconds)
        }
        let identity = try environment.identity()
        let ipHash = identity.context.clientHash(client)
        let decision: RateLimitDecision? = switch (environment.resolveLimit, environment.failedLookupBudget) {
        case (let limit?, let budget?):
            // Both questions in one Redis round trip.
            environment.rateLimiter.check(limit, key: client, failedLookups: budget, ipHash: ipHash)
        case (let limit?, nil): environment.rateLimiter.check(limit, key: client)
        case (nil, let budget?): budget.check(ipHash: ipHash, redis: environment.redis)
        case (nil, nil): nil
        }
        if let decision, let refusal = APIError.refusal(for: decision) { throw refusal }
        let metadata = EventMetadata(actor: .system("resolve"), requestId: context.requestID)
        guard let redeemed = try identity.redeemCode.run(request.query["code"] ?? "", now: environment.clock(),
                                                         metadata: metadata) else {
            environment.failedLookupBudget?.recordFailure(ipHash: ipHash, redis: environment.redis)
            throw notFound
        }
        return JSONResponse.raw(
            #"{"success":true,"data":{"guid":"\#(redeemed.guid)","projectId":"\#(redeemed.projectId)"}}"#)
    }

    /// The one 404 of this route: unknown, expired, spent and malformed codes are indistinguishable.
    static let notFound = APIError(status: 404, code: nil, message: "no live code matches")
}
