import Commands
import Crypto
import Domain
import Foundation
import Testing
import TestSupport

/// Postback signatures against Apple's published examples and keys (the real key path), and fixtures signed with a
/// key of the tests' own where Apple's cannot sign.
@Suite struct PostbackVerificationTests {
    /// A P-256 key made for these tests (openssl ecparam -name prime256v1 -genkey): never Apple's.
    static let ownKey = ECDSAPrivateKey(pem: """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIPgxbk/ySf/VgJO/XH4QLcV7jpxDLahcpNPMr1AfEolNoAoGCCqGSM49
        AwEHoUQDQgAEjeQJhqQ6OSwLkqBQtaSas5ERetzc8UKQnr5QnVVhzljDpxFtUR3y
        i2EM32wUTu1o7T3bfRsgtv4S5BM4pJSm6A==
        -----END EC PRIVATE KEY-----
        """)!

    private func skan(_ text: String) throws -> SKANPostback { try SKANPostback.parse(Array(text.utf8)).get() }
    private func aak(_ text: String) throws -> AAKPostback { try AAKPostback.parse(Array(text.utf8)).get() }

    @Test func applesPublishedSKAdNetworkExamplesVerifyWithApplesKey() throws {
        for example in [ApplePostbackExamples.skan3Winning, ApplePostbackExamples.skan3NotWinning,
                        ApplePostbackExamples.skan4High, ApplePostbackExamples.skan4Low] {
            #expect(PostbackVerifier.apple.verify(try skan(example)) == .verified)
        }
        let winning = try skan(ApplePostbackExamples.skan3Winning)
        let fields = ["3.0", "example123.skadnetwork", "42", "525463029", "6aafb7a5-0170-41b5-bbe4-fe71dedf1e28",
                      "true", "1234567891", "1", "true"]
        #expect(winning.signedMessage == Array(fields.joined(separator: "\u{2063}").utf8))
        let web = try skan(ApplePostbackExamples.skan4High)
        #expect(web.facts.sourceDomain == "example.com" && web.facts.conversionValue == 63)
    }

    @Test func aChangedSignedFieldFailsAndAChangedConversionValueDoesNot() throws {
        let altered = [
            ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"5239\"", with: "\"5238\""),
            ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"did-win\": true", with: "\"did-win\": false"),
            ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"postback-sequence-index\": 0",
                                                                 with: "\"postback-sequence-index\": 1"),
            ApplePostbackExamples.skan3Winning.replacingOccurrences(of: "\"campaign-id\": 42",
                                                                    with: "\"campaign-id\": 43"),
            ApplePostbackExamples.skan3NotWinning.replacingOccurrences(of: "\"fidelity-type\": 1",
                                                                       with: "\"fidelity-type\": 0"),
        ]
        for text in altered {
            #expect(PostbackVerifier.apple.verify(try skan(text)) == .failed)
        }
        let value = ApplePostbackExamples.skan4High.replacingOccurrences(of: "\"conversion-value\": 63",
                                                                        with: "\"conversion-value\": 12")
        #expect(PostbackVerifier.apple.verify(try skan(value)) == .verified)
    }

    @Test func applesAdAttributionKitExampleVerifiesWithItsDevelopmentKeyOnly() throws {
        let development = try aak(ApplePostbackExamples.aakDevelopment)
        #expect(development.keyId == "apple-development-identifier/1")
        #expect(PostbackVerifier.apple.verify(development) == .development)
        #expect(development.facts.appStoreId == 10_738_027_756 && development.facts.sourceIdentifier == "1234")
        #expect(development.facts.conversionValue == 24 && development.facts.transactionId
                == "85546EB7-FD39-44BC-8990-C98A4AC36A49")
        // Naming the production key does not make a signature the production key's.
        let production = try aak(ApplePostbackExamples.aakProductionKid)
        #expect(production.keyId == "apple-cas-identifier/0")
        #expect(PostbackVerifier.apple.verify(production) == .failed)
    }

    @Test func ownKeyFixturesVerifyOnlyWithTheKeyThatSignedThem() throws {
        let own = PostbackVerifier(production: Self.ownKey.publicKey, development: [:])
        let jws = Self.signedJWS(kid: "apple-cas-identifier/0", payload: Self.aakPayload(id: "P-1"))
        let postback = try aak(#"{"jws-string":"\#(jws)","coarse-conversion-value":"low"}"#)
        #expect(own.verify(postback) == .verified)
        #expect(PostbackVerifier.apple.verify(postback) == .failed)
        let stranger = Self.signedJWS(kid: "someone/0", payload: Self.aakPayload(id: "P-2"))
        let otherKid = try aak(#"{"jws-string":"\#(stranger)"}"#)
        #expect(own.verify(otherKid) == .failed)
        let skan4 = try skan(Self.signedSKAN4(transactionId: "T-1", appId: 525_463_029))
        #expect(own.verify(skan4) == .verified)
        #expect(PostbackVerifier.apple.verify(skan4) == .failed)
    }

    /// An AdAttributionKit payload for `id`.
    static func aakPayload(id: String, appId: Int64 = 525_463_029) -> String {
        #"{"postback-identifier":"\#(id)","ad-network-identifier":"net.example","source-identifier":"4321","#
            + #""advertised-item-identifier":\#(appId),"did-win":true,"postback-sequence-index":0,"#
            + #""conversion-type":"download","impression-type":"app-impression"}"#
    }

    /// A compact JWS of `payload` with `kid`, signed with `ownKey`.
    static func signedJWS(kid: String, payload: String) -> String {
        let input = base64URL(Array(#"{"kid":"\#(kid)","alg":"ES256"}"#.utf8)) + "." + base64URL(Array(payload.utf8))
        return input + "." + base64URL(ownKey.signature(for: Array(input.utf8)))
    }

    /// A version 4.0 SKAdNetwork postback signed with `ownKey` over its fields in Apple's order.
    static func signedSKAN4(transactionId: String, appId: Int64) -> String {
        let fields = ["4.0", "net.example", "4321", String(appId), transactionId, "false", "1", "true", "0"]
        let raw = ownKey.signature(for: Array(fields.joined(separator: "\u{2063}").utf8))
        let signature = Data(ECDSASignature.der(fromRaw: raw)!).base64EncodedString()
        return #"{"version":"4.0","ad-network-id":"net.example","source-identifier":"4321","app-id":\#(appId),"#
            + #""transaction-id":"\#(transactionId)","redownload":false,"fidelity-type":1,"did-win":true,"#
            + #""postback-sequence-index":0,"attribution-signature":"\#(signature)"}"#
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
