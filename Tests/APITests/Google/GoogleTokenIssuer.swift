import Crypto
import Foundation

/// Plays Google for the push tests: RSA keys with ids, their JWKS, and OIDC tokens signed as Pub/Sub signs them.
struct GoogleTokenIssuer {
    static let audience = "https://handoff.example/v1/m/store/google/AAAAbbbbCCCCddddEEEEffffGGGGhhhh"
    static let account = "play-push@handoff-test.iam.gserviceaccount.com"
    static let now = Date(timeIntervalSince1970: 1_750_000_100)

    let keyID: String
    let key: RSAPrivateKey

    init(keyID: String = "google-key-1", key: RSAPrivateKey = RSAPrivateKey.generate()) {
        self.keyID = keyID
        self.key = key
    }

    /// `{"keys":[…]}` with the public halves of `issuers`, as Google publishes them.
    static func jwks(_ issuers: [GoogleTokenIssuer]) -> String {
        let keys = issuers.map { issuer in
            let (modulus, exponent) = issuer.key.publicKey.components
            return #"{"kty":"RSA","alg":"RS256","use":"sig","kid":"\#(issuer.keyID)","#
                + #""n":"\#(Base64URL.encode(modulus))","e":"\#(Base64URL.encode(exponent))"}"#
        }
        return #"{"keys":[\#(keys.joined(separator: ","))]}"#
    }

    /// The claims Pub/Sub puts in a push token, with changes.
    static func claims(issuer: String = "https://accounts.google.com", audience: String = audience,
                       email: String = account, verified: String = "true", issuedAt: Date = now - 100,
                       lifetime: TimeInterval = 3600) -> String {
        """
        {"aud":"\(audience)","azp":"112233445566778899","email":"\(email)","email_verified":\(verified),\
        "exp":\(Int(issuedAt.timeIntervalSince1970 + lifetime)),"iat":\(Int(issuedAt.timeIntervalSince1970)),\
        "iss":"\(issuer)","sub":"112233445566778899"}
        """
    }

    /// A compact JWT of `claims` signed with this issuer's key, with `header` (default: RS256 with this key's id).
    func token(claims: String = GoogleTokenIssuer.claims(), header: String? = nil) -> String {
        let header = header ?? #"{"alg":"RS256","kid":"\#(keyID)","typ":"JWT"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(key.signRS256(Array(input.utf8)))
    }
}
