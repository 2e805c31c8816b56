import Domain
import Testing

/// JWKS documents as Google publishes them (`https://www.googleapis.com/oauth2/v3/certs`), and refusals.
struct JSONWebKeySetTests {
    static let n1 = "sW3ZbY7xEH5BVi3i2Q"
    static let google = """
        {"keys":[{"e":"AQAB","kty":"RSA","n":"\(n1)","alg":"RS256","use":"sig","kid":"k1"},\
        {"kty":"RSA","use":"sig","alg":"RS256","n":"AQAB","e":"AQAB","kid":"k2"}]}
        """

    private func parse(_ text: String) -> Result<JSONWebKeySet, JSONWebKeySetError> {
        JSONWebKeySet.parse(Array(text.utf8))
    }

    private func refusal(_ text: String) -> String? {
        guard case .failure(let error) = parse(text) else { return nil }
        return error.message
    }

    @Test func googlesKeySetIsRead() throws {
        let set = try parse(Self.google).get()
        #expect(set.keys.map(\.id) == ["k1", "k2"])
        #expect(set.key(id: "k1") == JSONWebKey(id: "k1", algorithm: "RS256", use: "sig",
                                                 modulus: [0xB1, 0x6D, 0xD9, 0x6D, 0x8E, 0xF1, 0x10, 0x7E, 0x41,
                                                           0x56, 0x2D, 0xE2, 0xD9],
                                                 exponent: [0x01, 0x00, 0x01]))
        #expect(set.key(id: "k3") == nil)
    }

    @Test func keysOfOtherTypesUsesOrAlgorithmsAreSkipped() throws {
        let text = """
            {"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","kid":"ec"},\
            {"kty":"RSA","use":"enc","n":"AQAB","e":"AQAB","kid":"enc"},\
            {"kty":"RSA","alg":"RS512","n":"AQAB","e":"AQAB","kid":"rs512"},\
            {"kty":"RSA","n":"AQAB","e":"AQAB","kid":"plain"}]}
            """
        #expect(try parse(text).get().keys.map(\.id) == ["plain"])
    }

    @Test func aSetWithoutAnRS256SigningKeyIsRefused() {
        #expect(refusal(#"{"keys":[]}"#) == "it holds no RS256 signing key")
        #expect(refusal(#"{"keys":[{"kty":"EC","kid":"x"}]}"#) == "it holds no RS256 signing key")
    }

    @Test func malformedDocumentsAreRefusedNamingTheField() {
        #expect(refusal("") == "the key set is not valid JSON")
        #expect(refusal("[]") == "the key set must be a JSON object")
        #expect(refusal("{}") == "field 'keys' is required")
        #expect(refusal(#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}"#) == "field 'keys[0].kid' is required")
        #expect(refusal(#"{"keys":[{"kty":"RSA","kid":"a","e":"AQAB"}]}"#) == "field 'keys[0].n' is required")
        #expect(refusal(#"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB="}]}"#)
            == "field 'keys[0].e' must be unpadded base64url")
        #expect(refusal(#"{"keys":[{"kty":"RSA","kid":"a","n":"A+AB","e":"AQAB"}]}"#)
            == "field 'keys[0].n' must be unpadded base64url")
        #expect(refusal(#"{"keys":[{"kty":"RSA","kid":"","n":"AQAB","e":"AQAB"}]}"#)
            == "field 'keys[0].kid' must be 1 to 256 bytes")
        #expect(refusal(#"{"keys":[{"n":"AQAB"}]}"#) == "field 'keys[0].kty' is required")
    }

    @Test func twoKeysWithOneKidAreRefused() {
        let text = #"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"},{"kty":"RSA","kid":"a","n":"AQAB","#
            + #""e":"AQAB"}]}"#
        #expect(refusal(text) == "two keys have the same kid")
    }

    @Test func moreThanSixtyFourKeysAreRefused() {
        let key = #"{"kty":"EC","kid":"x"}"#
        let text = "{\"keys\":[" + Array(repeating: key, count: 65).joined(separator: ",") + "]}"
        #expect(refusal(text) == "field 'keys' must hold at most 64 keys")
    }
}
