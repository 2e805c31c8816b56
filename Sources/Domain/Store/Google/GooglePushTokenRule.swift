import Foundation

/// What the OIDC token of a Google Pub/Sub push must say, apart from its signature: a pure rule, clock passed in.
///
/// Google documents the issuer as `https://accounts.google.com` and also issues `accounts.google.com`; both are
/// taken. The audience is the app's push audience, or its store URL when none is set (the caller decides which).
public enum GooglePushTokenRule {
    /// The accepted `iss` values.
    public static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    /// How far clocks may disagree: `exp` may be this far in the past and `iat` this far in the future.
    public static let allowedSkew: TimeInterval = 60

    /// The token of an `Authorization` header value: `Bearer <token>` (scheme in any case, one or more spaces); nil
    /// for anything else.
    public static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// Succeeds when `claims` were issued by Google for `audience` to `serviceAccount` (compared ignoring ASCII
    /// case), with a verified e-mail, and are valid at `now` give or take `allowedSkew`.
    public static func check(
        _ claims: JWTClaims, audience: String, serviceAccount: String, now: Date
    ) -> Result<Void, GooglePushTokenFailure> {
        guard let issuer = claims.issuer, issuers.contains(issuer) else { return .failure(.wrongIssuer) }
        guard claims.audiences.contains(audience) else { return .failure(.wrongAudience) }
        guard let email = claims.email, email.lowercased() == serviceAccount.lowercased() else {
            return .failure(.wrongServiceAccount)
        }
        guard claims.emailVerified == true else { return .failure(.emailNotVerified) }
        guard let expiresAt = claims.expiresAt, now < expiresAt + allowedSkew else { return .failure(.expired) }
        guard let issuedAt = claims.issuedAt, issuedAt <= now + allowedSkew else {
            return .failure(.issuedInTheFuture)
        }
        return .success(())
    }
}
