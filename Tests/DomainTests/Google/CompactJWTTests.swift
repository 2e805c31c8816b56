import Domain
import Foundation
import Testing

/// Splitting and decoding compact JWTs; signatures are judged elsewhere (`GooglePushVerifierTests`).
struct CompactJWTTests {
    static func part(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let header = #"{"alg":"RS256","kid":"key-1","typ":"JWT"}"#
    static let claims = """
        {"aud":"https://handoff.example/v1/m/store/google/tok","azp":"1234","email":"push@p.iam.gserviceaccount.com",\
        "email_verified":true,"exp":1750003600,"iat":1750000000,"iss":"https://accounts.google.com","sub":"1234"}
        """

    static func token(header: String = header, claims: String = claims, signature: String = "c2ln") -> String {
        part(header) + "." + part(claims) + "." + signature
    }

    @Test func aGoogleStyleTokenIsSplitAndDecoded() throws {
        let text = Self.token()
        let token = try #require(CompactJWT.parse(text))
        #expect(token.header == JWTHeader(algorithm: "RS256", keyID: "key-1", type: "JWT"))
        #expect(token.claims == JWTClaims(
            issuer: "https://accounts.google.com", audiences: ["https://handoff.example/v1/m/store/google/tok"],
            email: "push@p.iam.gserviceaccount.com", emailVerified: true,
            expiresAt: Date(timeIntervalSince1970: 1_750_003_600),
            issuedAt: Date(timeIntervalSince1970: 1_750_000_000), subject: "1234"))
        #expect(token.signature == Array("sig".utf8))
        #expect(token.signingInput == Array(text.utf8.prefix(text.utf8.count - ".c2ln".utf8.count)))
    }

    @Test func anAudienceArrayAndATextualEmailVerifiedAreTaken() throws {
        let claims = #"{"aud":["a","b"],"email_verified":"true","exp":1.5}"#
        let token = try #require(CompactJWT.parse(Self.token(claims: claims)))
        #expect(token.claims.audiences == ["a", "b"])
        #expect(token.claims.emailVerified == true)
        #expect(token.claims.expiresAt == Date(timeIntervalSince1970: 1.5))
        #expect(CompactJWT.parse(Self.token(claims: #"{"email_verified":"false"}"#))?.claims.emailVerified == false)
        #expect(CompactJWT.parse(Self.token(claims: "{}"))?.claims == JWTClaims(
            issuer: nil, audiences: [], email: nil, emailVerified: nil, expiresAt: nil, issuedAt: nil, subject: nil))
    }

    @Test func tokensOfTheWrongShapeAreRefused() {
        let (header, claims) = (Self.part(Self.header), Self.part(Self.claims))
        for text in ["", "a.b", "\(header).\(claims)", "\(header).\(claims).", "\(header).\(claims).c2ln.x",
                     ".\(claims).c2ln", "\(header)..c2ln", "\(header).\(claims).c2ln=", "\(header)=.\(claims).c2ln",
                     "\(header).\(claims).c2l+", "\(header) .\(claims).c2ln"] {
            #expect(CompactJWT.parse(text) == nil, "\(text)")
        }
    }

    @Test func headersAndClaimsThatAreNotTheDocumentedJSONAreRefused() {
        #expect(CompactJWT.parse(Self.token(header: "{}")) == nil)
        #expect(CompactJWT.parse(Self.token(header: #"{"alg":256}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(header: #"{"alg":"RS256","crit":["b64"]}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(header: "not json")) == nil)
        #expect(CompactJWT.parse(Self.token(claims: "[]")) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"exp":"1750003600"}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"exp":-1}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"iat":1e300}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"aud":7}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"email_verified":"yes"}"#)) == nil)
        #expect(CompactJWT.parse(Self.token(claims: #"{"email_verified":1}"#)) == nil)
    }

    @Test func aTokenLongerThanTheLimitIsRefused() {
        let long = Self.token(signature: String(repeating: "A", count: CompactJWT.maxLength))
        #expect(CompactJWT.parse(long) == nil)
    }
}
