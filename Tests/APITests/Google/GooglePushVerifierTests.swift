import Commands
import Crypto
import Domain
import Foundation
import Testing

/// The OIDC token of a Pub/Sub push: RS256 against the JWKS by `kid`, then Google's claims.
struct GooglePushVerifierTests {
    typealias Issuer = GoogleTokenIssuer

    static let issuer = Issuer()
    static let rotated = Issuer(keyID: "google-key-2")
    static let verifier = try! GooglePushVerifier(
        jwks: JSONWebKeySet.parse(Array(Issuer.jwks([issuer, rotated]).utf8)).get())

    private func verify(_ authorization: String?, audience: String = Issuer.audience,
                        account: String = Issuer.account, now: Date = Issuer.now) -> GooglePushTokenFailure? {
        switch Self.verifier.verify(authorization: authorization, audience: audience, serviceAccount: account,
                                    now: now) {
        case .success: nil
        case .failure(.unauthorized(let reason)): reason
        case .failure(.malformed): nil
        }
    }

    @Test func aTokenSignedWithAKeyOfTheSetVerifiesAndGivesItsClaims() throws {
        let claims = try Self.verifier.verify(
            authorization: "Bearer " + Self.issuer.token(), audience: Issuer.audience,
            serviceAccount: Issuer.account, now: Issuer.now).get()
        #expect(claims.email == Issuer.account)
        #expect(claims.subject == "112233445566778899")
        #expect(verify("Bearer " + Self.rotated.token()) == nil)
        #expect(Self.verifier.keyIDs == ["google-key-1", "google-key-2"])
    }

    @Test func aMissingOrNonBearerAuthorizationIsMissing() {
        #expect(verify(nil) == .missing)
        #expect(verify("") == .missing)
        #expect(verify(Self.issuer.token()) == .missing)
        #expect(verify("Basic " + Self.issuer.token()) == .missing)
    }

    @Test func somethingThatIsNotACompactJWTIsMalformed() {
        #expect(verify("Bearer abc") == .malformed)
        #expect(verify("Bearer " + Self.issuer.token() + ".x") == .malformed)
    }

    @Test func anAlgorithmOtherThanRS256IsRefused() {
        for alg in ["none", "HS256", "RS512", "ES256", "rs256"] {
            let token = Self.issuer.token(header: #"{"alg":"\#(alg)","kid":"google-key-1"}"#)
            #expect(verify("Bearer " + token) == .unsupportedAlgorithm, "\(alg)")
        }
    }

    @Test func aKidOutsideTheSetOrNoKidIsAnUnknownKey() {
        let stranger = Issuer(keyID: "google-key-9", key: Self.issuer.key)
        #expect(verify("Bearer " + stranger.token()) == .unknownKey)
        #expect(verify("Bearer " + Self.issuer.token(header: #"{"alg":"RS256"}"#)) == .unknownKey)
        let none = GooglePushVerifier.withoutKeys.verify(
            authorization: "Bearer " + Self.issuer.token(), audience: Issuer.audience,
            serviceAccount: Issuer.account, now: Issuer.now)
        #expect(none == .failure(.unauthorized(.unknownKey)))
    }

    @Test func aTokenSignedByAnotherKeyUnderAKnownKidHasABadSignature() {
        let forger = Issuer(keyID: "google-key-1")
        #expect(verify("Bearer " + forger.token()) == .badSignature)
    }

    @Test func changedClaimsUnderTheOriginalSignatureHaveABadSignature() {
        let parts = Self.issuer.token().split(separator: ".").map(String.init)
        let claims = Base64URL.encode(Array(Issuer.claims(audience: "https://attacker.example").utf8))
        #expect(verify("Bearer \(parts[0]).\(claims).\(parts[2])") == .badSignature)
        var signature = Base64URL.decode(parts[2])!
        signature[10] ^= 1
        #expect(verify("Bearer \(parts[0]).\(parts[1]).\(Base64URL.encode(signature))") == .badSignature)
    }

    @Test func aSignedTokenWithTheWrongIssuerAudienceOrAccountIsRefused() {
        #expect(verify("Bearer " + Self.issuer.token(claims: Issuer.claims(issuer: "accounts.google.com"))) == nil)
        #expect(verify("Bearer " + Self.issuer.token(claims: Issuer.claims(issuer: "https://accounts.google.co")))
            == .wrongIssuer)
        #expect(verify("Bearer " + Self.issuer.token(claims: Issuer.claims(audience: "https://other.example")))
            == .wrongAudience)
        #expect(verify("Bearer " + Self.issuer.token(), audience: "https://handoff.example/v1/m/store/google/x")
            == .wrongAudience)
        #expect(verify("Bearer " + Self.issuer.token(), account: "other@handoff-test.iam.gserviceaccount.com")
            == .wrongServiceAccount)
        #expect(verify("Bearer " + Self.issuer.token(claims: Issuer.claims(verified: "false")))
            == .emailNotVerified)
    }

    @Test func expiryAndIssueTimeAreJudgedWithSixtySecondsOfSkew() {
        let token = "Bearer " + Self.issuer.token(claims: Issuer.claims(issuedAt: Issuer.now, lifetime: 3600))
        #expect(verify(token, now: Issuer.now + 3659) == nil)
        #expect(verify(token, now: Issuer.now + 3660) == .expired)
        #expect(verify(token, now: Issuer.now - 60) == nil)
        #expect(verify(token, now: Issuer.now - 61) == .issuedInTheFuture)
    }

    @Test func aKeySetWithAKeyTooSmallForRSAIsRefusedNamingTheKey() throws {
        let set = JSONWebKeySet(keys: [JSONWebKey(id: "tiny", algorithm: "RS256", use: "sig",
                                                  modulus: [UInt8](repeating: 0xC3, count: 128),
                                                  exponent: [1, 0, 1])])
        #expect(throws: JSONWebKeySetError("the key \"tiny\" is not an RSA key of 2048 to 8192 bits")) {
            try GooglePushVerifier(jwks: set)
        }
    }
}
