import Domain
import Foundation
import Testing

/// The claims an OIDC token of a Pub/Sub push must carry, one line per rule.
struct GooglePushTokenRuleTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_100)
    static let audience = "https://handoff.example/v1/m/store/google/tok"
    static let account = "push@project.iam.gserviceaccount.com"

    static func claims(issuer: String? = "https://accounts.google.com", audiences: [String] = [audience],
                       email: String? = account, verified: Bool? = true, expiresIn: TimeInterval? = 3500,
                       issuedAgo: TimeInterval? = 100) -> JWTClaims {
        JWTClaims(issuer: issuer, audiences: audiences, email: email, emailVerified: verified,
                  expiresAt: expiresIn.map { now + $0 }, issuedAt: issuedAgo.map { now - $0 }, subject: "1")
    }

    static func check(_ claims: JWTClaims) -> GooglePushTokenFailure? {
        switch GooglePushTokenRule.check(claims, audience: audience, serviceAccount: account, now: now) {
        case .success: nil
        case .failure(let failure): failure
        }
    }

    @Test func aFreshTokenForTheAudienceAndAccountPasses() {
        #expect(Self.check(Self.claims()) == nil)
    }

    @Test func bothOfGooglesIssuerSpellingsPassAndNoOther() {
        #expect(Self.check(Self.claims(issuer: "accounts.google.com")) == nil)
        #expect(Self.check(Self.claims(issuer: "https://accounts.google.com/")) == .wrongIssuer)
        #expect(Self.check(Self.claims(issuer: "https://evil.example")) == .wrongIssuer)
        #expect(Self.check(Self.claims(issuer: nil)) == .wrongIssuer)
    }

    @Test func theAudienceMustBeAmongTheTokensAudiences() {
        #expect(Self.check(Self.claims(audiences: ["other", Self.audience])) == nil)
        #expect(Self.check(Self.claims(audiences: [Self.audience + "/"])) == .wrongAudience)
        #expect(Self.check(Self.claims(audiences: [Self.audience.uppercased()])) == .wrongAudience)
        #expect(Self.check(Self.claims(audiences: [])) == .wrongAudience)
    }

    @Test func theEmailMustBeTheServiceAccountIgnoringCase() {
        #expect(Self.check(Self.claims(email: Self.account.uppercased())) == nil)
        #expect(Self.check(Self.claims(email: "other@project.iam.gserviceaccount.com")) == .wrongServiceAccount)
        #expect(Self.check(Self.claims(email: nil)) == .wrongServiceAccount)
    }

    @Test func theEmailMustBeVerified() {
        #expect(Self.check(Self.claims(verified: false)) == .emailNotVerified)
        #expect(Self.check(Self.claims(verified: nil)) == .emailNotVerified)
    }

    @Test func aTokenExpiredLessThanSixtySecondsAgoPassesAndNotFromSixty() {
        #expect(Self.check(Self.claims(expiresIn: -59.999)) == nil)
        #expect(Self.check(Self.claims(expiresIn: -60)) == .expired)
        #expect(Self.check(Self.claims(expiresIn: -3600)) == .expired)
        #expect(Self.check(Self.claims(expiresIn: nil)) == .expired)
    }

    @Test func aTokenIssuedUpToSixtySecondsAheadPassesAndNotLater() {
        #expect(Self.check(Self.claims(issuedAgo: -60)) == nil)
        #expect(Self.check(Self.claims(issuedAgo: -60.001)) == .issuedInTheFuture)
        #expect(Self.check(Self.claims(issuedAgo: nil)) == .issuedInTheFuture)
    }

    @Test func theBearerTokenIsTakenFromTheAuthorizationHeader() {
        #expect(GooglePushTokenRule.bearerToken("Bearer abc.def.ghi") == "abc.def.ghi")
        #expect(GooglePushTokenRule.bearerToken("bearer  abc") == "abc")
        #expect(GooglePushTokenRule.bearerToken(nil) == nil)
        #expect(GooglePushTokenRule.bearerToken("") == nil)
        #expect(GooglePushTokenRule.bearerToken("Bearer") == nil)
        #expect(GooglePushTokenRule.bearerToken("Basic abc") == nil)
        #expect(GooglePushTokenRule.bearerToken("Bearer a b") == nil)
        #expect(GooglePushTokenRule.bearerToken("abc") == nil)
    }
}
