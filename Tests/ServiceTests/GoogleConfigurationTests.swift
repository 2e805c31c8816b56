import Commands
import Foundation
import Service
import Testing

/// `GOOGLE_OIDC_JWKS` and `GOOGLE_PLAY_API_BASE_URL` (issue 14, Google Play).
@Suite struct GoogleConfigurationTests {
    /// A JWKS with one real 2048-bit key (the modulus of a throwaway test key).
    static let jwks = """
        {"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"k1","e":"AQAB","n":"\(modulus)"}]}
        """
    static let modulus = String(repeating: "w", count: 341) + "Q"

    @Test func theGoogleVariablesHaveDefaultsAndAreRead() throws {
        let defaults = try Configuration(environment: [:])
        #expect(defaults.googleOIDCJWKS == nil)
        #expect(defaults.googlePlayAPIBaseURL == "https://androidpublisher.googleapis.com")

        let file = NSTemporaryDirectory() + "handoff-config-jwks-\(UUID().uuidString).json"
        try Data(Self.jwks.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let set = try Configuration(environment: [
            "GOOGLE_OIDC_JWKS": file, "GOOGLE_PLAY_API_BASE_URL": "http://127.0.0.1:9000/",
        ])
        #expect(set.googleOIDCJWKS == .file(path: file))
        #expect(set.googlePlayAPIBaseURL == "http://127.0.0.1:9000")
        let inline = try Configuration(environment: ["GOOGLE_OIDC_JWKS": Self.jwks])
        #expect(inline.googleOIDCJWKS == .inline(json: Self.jwks))
    }

    @Test(arguments: [
        ("GOOGLE_OIDC_JWKS", "/nonexistent/google-certs.json"), ("GOOGLE_OIDC_JWKS", #"{"keys":[]}"#),
        ("GOOGLE_OIDC_JWKS", "{not json"), ("GOOGLE_PLAY_API_BASE_URL", "ftp://example.com"),
        ("GOOGLE_PLAY_API_BASE_URL", "https://example.com/?q"),
    ])
    func aBadValueIsRefusedNamingItsVariable(variable: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) { try Configuration(environment: [variable: value]) }
        #expect(error?.variable == variable)
    }
}
