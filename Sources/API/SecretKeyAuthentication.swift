import Commands
import Domain
import HTTPServer

/// The S2S gate at the edge: `Authorization: Bearer sk_live_…` → the key's holder, or a 401; then the key's own budget
/// (`Environment.s2sLimit`).
///
/// A key that does not parse (wrong prefix, length, characters or checksum) is refused before any database lookup.
/// Failed checks are counted per client (`Environment.authFailureLimit`, 20 per minute, keyed by
/// `Environment.clientKey`: an IPv4 address, an IPv6 /64): once a client has spent its budget, it gets 429 with
/// `Retry-After` whatever key it sends, so guessing keys from one address (or /64) stops there.
///
/// Two Redis questions in one round trip (issue 17 §5): the client's failed-check budget is looked at together with
/// the key's budget, after the key lookup. A client this process already saw over budget is refused from memory
/// before any lookup (`RateLimiter.denied`); one seen over budget only by another instance costs one key lookup here,
/// answered 429 even when the key is good — a spent budget never lets a guess through.
enum SecretKeyAuthentication {
    /// The holder of the request's live key, or a 401 `APIError` naming what is wrong (never echoing the key), or a
    /// 429 while the client IP is over its budget of failed checks or the key over its own budget.
    static func authenticate(_ request: Request, _ environment: Environment) throws -> ProjectLookup.KeyHolder {
        let limiter = environment.rateLimiter
        let client = environment.clientKey(request)
        if let seconds = limiter.rememberedRetryAfter(environment.authFailureLimit, key: client) {
            throw APIError.rateLimited(retryAfterSeconds: seconds)
        }
        let found: ProjectLookup.KeyHolder
        do {
            found = try holder(request, environment)
        } catch let refusal as APIError where refusal.status == 401 {
            // A failed check over a budget already spent takes nothing and was refused: the client was over budget
            // before this request, so it hears 429, as it would have before the lookup.
            let counted = limiter.check(environment.authFailureLimit, key: client)
            if case .limited(let seconds) = counted { throw APIError.rateLimited(retryAfterSeconds: seconds) }
            throw refusal
        }
        let decision = limiter.check(environment.s2sLimit, key: found.prefix,
                                     gate: environment.authFailureLimit, gateKey: client)
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        return found
    }

    private static func holder(_ request: Request, _ environment: Environment) throws -> ProjectLookup.KeyHolder {
        guard let header = request.headers["Authorization"] else {
            throw APIError.unauthorized("an Authorization header with 'Bearer sk_live_…' is required")
        }
        // The scheme is case-insensitive (RFC 9110 §11.1); the key itself is parsed exactly.
        let scheme = "bearer "
        guard header.prefix(scheme.count).lowercased() == scheme else {
            throw APIError.unauthorized("the Authorization header must be 'Bearer sk_live_…'")
        }
        let text = String(header.dropFirst(scheme.count))
        guard case .success(let key) = SecretKey.parse(text) else {
            throw APIError.unauthorized("the secret key is malformed (check for a typo)")
        }
        // A database that does not answer is a 503 (`Refusal.unavailable`): neither 401 (a good key) nor 500.
        let holder = try environment.projects.holder(of: key)
        guard let holder else { throw APIError.unauthorized("the secret key is unknown or revoked") }
        return holder
    }
}
