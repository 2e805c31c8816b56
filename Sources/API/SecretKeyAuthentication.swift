import Commands
import Domain
import HTTPServer

/// The S2S gate at the edge: `Authorization: Bearer sk_live_…` → the key's holder, or a 401.
///
/// A key that does not parse (wrong prefix, length, characters or checksum) is refused before any database lookup.
/// Failed checks are counted per client (`Environment.authFailureLimit`, 20 per minute, keyed by
/// `Environment.clientKey`: an IPv4 address, an IPv6 /64): once a client has spent its budget, it gets 429 with
/// `Retry-After` before any key it sends is looked at, so guessing keys from one address (or /64) stops there.
enum SecretKeyAuthentication {
    /// The holder of the request's live key, or a 401 `APIError` naming what is wrong (never echoing the key), or a
    /// 429 while the client IP is over its budget of failed checks.
    static func authenticate(_ request: Request, _ environment: Environment) throws -> ProjectLookup.KeyHolder {
        let limiter = environment.rateLimiter
        let client = environment.clientKey(request)
        if let refusal = APIError.refusal(for: limiter.peek(environment.authFailureLimit, key: client)) {
            throw refusal
        }
        do {
            return try holder(request, environment)
        } catch let refusal as APIError where refusal.status == 401 {
            _ = limiter.check(environment.authFailureLimit, key: client)
            throw refusal
        }
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
