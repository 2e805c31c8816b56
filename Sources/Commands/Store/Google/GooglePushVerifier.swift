import Crypto
import Domain
import Foundation

/// Verifies the `Authorization: Bearer` OIDC token Pub/Sub sends with each push of an authenticated push
/// subscription: RS256 with the key its `kid` names in Google's JWKS, then `GooglePushTokenRule` (issuer, audience,
/// service account, `email_verified`, `exp`/`iat` with 60 s skew).
///
/// No network: the keys come from the operator's JWKS (`GoogleOIDCKeys`). Immutable and thread-safe.
public struct GooglePushVerifier: Sendable {
    /// The RSA keys by `kid`.
    private let keys: [String: RSAPublicKey]

    /// A verifier with no keys (no JWKS configured): every token fails with `.unknownKey`.
    public static let withoutKeys = GooglePushVerifier(keys: [:])

    private init(keys: [String: RSAPublicKey]) {
        self.keys = keys
    }

    /// A verifier for the keys of `jwks`; throws when a key's `n` and `e` are not a usable RSA key (a modulus of 2048
    /// to 8192 bits, an odd exponent), naming its `kid`.
    public init(jwks: JSONWebKeySet) throws(JSONWebKeySetError) {
        var keys: [String: RSAPublicKey] = [:]
        for key in jwks.keys {
            guard let publicKey = RSAPublicKey(modulus: key.modulus, exponent: key.exponent) else {
                throw JSONWebKeySetError("the key \"\(key.id)\" is not an RSA key of 2048 to 8192 bits")
            }
            keys[key.id] = publicKey
        }
        self.init(keys: keys)
    }

    /// The `kid`s this verifier knows, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }

    /// The verified claims of the token in `authorization` (the header's value), or `.unauthorized` with the reason.
    ///
    /// `audience` is the app's push audience, or its store URL when none is set; `serviceAccount` the app's push
    /// service account e-mail.
    public func verify(
        authorization: String?, audience: String, serviceAccount: String, now: Date
    ) -> Result<JWTClaims, GoogleIntakeFailure> {
        guard let text = GooglePushTokenRule.bearerToken(authorization) else {
            return .failure(.unauthorized(.missing))
        }
        guard let token = CompactJWT.parse(text) else { return .failure(.unauthorized(.malformed)) }
        guard token.header.algorithm == "RS256" else { return .failure(.unauthorized(.unsupportedAlgorithm)) }
        guard let keyID = token.header.keyID, let key = keys[keyID] else {
            return .failure(.unauthorized(.unknownKey))
        }
        guard key.isValidRS256Signature(token.signature, of: token.signingInput) else {
            return .failure(.unauthorized(.badSignature))
        }
        switch GooglePushTokenRule.check(token.claims, audience: audience, serviceAccount: serviceAccount, now: now) {
        case .success: return .success(token.claims)
        case .failure(let failure): return .failure(.unauthorized(failure))
        }
    }
}
