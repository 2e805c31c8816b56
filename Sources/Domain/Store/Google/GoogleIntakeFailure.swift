/// Why a Google Play notification (a Pub/Sub push) was refused. Either way nothing of it is recorded or forwarded.
public enum GoogleIntakeFailure: Error, Hashable, Sendable {
    /// The body is not a Pub/Sub push of a `DeveloperNotification`: answer 400 with `message`, which names the field
    /// and the rule and never repeats a value.
    case malformed(message: String)
    /// The push's OIDC token is missing or does not verify: answer 401, with the same body whatever the reason (the
    /// reason is for logs and tests).
    case unauthorized(GooglePushTokenFailure)
}

/// Why the `Authorization: Bearer` OIDC token of a Pub/Sub push was not accepted (always a 401).
public enum GooglePushTokenFailure: Error, Hashable, Sendable {
    /// No `Authorization` header, or not of the form `Bearer <token>`.
    case missing
    /// Not a compact JWT: three base64url segments, a JSON header with `alg`, JSON claims, no `crit`.
    case malformed
    /// A header `alg` other than `RS256`.
    case unsupportedAlgorithm
    /// No key of the configured JWKS has the token's `kid` (or the token names none, or no JWKS is configured).
    case unknownKey
    /// The RS256 signature does not verify with the key the `kid` names.
    case badSignature
    /// `iss` is neither `https://accounts.google.com` nor `accounts.google.com`.
    case wrongIssuer
    /// `aud` is not the expected audience (the app's push audience, or its store URL).
    case wrongAudience
    /// `email` is not the app's push service account.
    case wrongServiceAccount
    /// `email_verified` is not `true`.
    case emailNotVerified
    /// `exp` is missing, or more than the allowed skew in the past.
    case expired
    /// `iat` is missing, or more than the allowed skew in the future.
    case issuedInTheFuture
}
