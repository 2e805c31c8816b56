import Crypto
import Foundation

extension PlayDeveloperAPI {
    /// An OAuth 2 access token for the Play Developer API and when it stops working.
    struct AccessToken: Sendable {
        let value: String
        let expiresAt: Date
    }

    /// The assertion's lifetime: Google takes at most one hour.
    static let assertionLifetime: TimeInterval = 3600

    /// The OAuth 2 JWT-bearer assertion (RFC 7523) of `key` at `now`: an RS256 JWT
    /// `{"iss":client_email,"scope":androidpublisher,"aud":token_uri,"iat":now,"exp":now+3600}`, with the key's id as
    /// `kid` when the file names one.
    static func assertion(key: ServiceAccountKey, now: Date) -> String {
        var header = ["alg": "RS256", "typ": "JWT"]
        if let keyID = key.privateKeyID { header["kid"] = keyID }
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = AssertionClaims(iss: key.clientEmail, scope: scope, aud: key.tokenURI, iat: issuedAt,
                                     exp: issuedAt + Int(assertionLifetime))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let headerJSON = try? encoder.encode(header), let claimsJSON = try? encoder.encode(claims) else {
            fatalError("encoding an assertion cannot fail")
        }
        let input = Base64URL.encode([UInt8](headerJSON)) + "." + Base64URL.encode([UInt8](claimsJSON))
        return input + "." + Base64URL.encode(key.privateKey.signRS256(Array(input.utf8)))
    }

    /// The form body of the token request for `assertion`.
    static func tokenRequestBody(assertion: String) -> [UInt8] {
        // The assertion is base64url and dots: nothing in it needs percent-encoding.
        Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)".utf8)
    }

    /// The access token in a 200 answer of the token endpoint received at `now`, or why it is not one.
    static func accessToken(from body: [UInt8], now: Date) -> Result<AccessToken, Failure> {
        guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: Data(body)) else {
            return .failure(.malformedResponse("the token answer has no access_token and expires_in"))
        }
        guard !answer.accessToken.isEmpty,
              answer.accessToken.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), answer.expiresIn > 0 else {
            return .failure(.malformedResponse("the token answer's access_token or expires_in is not usable"))
        }
        return .success(AccessToken(value: answer.accessToken, expiresAt: now + TimeInterval(answer.expiresIn)))
    }

    /// The OAuth `error` code of a refusal from the token endpoint, if it sent one.
    static func oauthError(from body: [UInt8]) -> String? {
        (try? JSONDecoder().decode(TokenRefusal.self, from: Data(body)))?.error
    }

    private struct AssertionClaims: Encodable {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int
        let exp: Int
    }

    private struct TokenAnswer: Decodable {
        let accessToken: String
        let expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", expiresIn = "expires_in"
        }
    }

    private struct TokenRefusal: Decodable {
        let error: String
    }
}
