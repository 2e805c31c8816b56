import Domain
import Foundation
import Testing

/// Compact JWS parsing: the form of App Store JWS, and every way text can fail to be one.
struct CompactJWSTests {
    private func failure(_ text: String) -> CompactJWSFailure? {
        if case .failure(let failure) = CompactJWS.parse(text) { return failure }
        return nil
    }

    private func isMalformed(_ text: String) -> Bool {
        if case .malformed = failure(text) { return true }
        return false
    }

    @Test func theTestNotificationIsAnES256JWSWithThreeCertificates() throws {
        let text = AppleFixtureText.signedData("testNotification")
        let jws = try CompactJWS.parse(text).get()
        #expect(jws.algorithm == "ES256")
        #expect(jws.certificateChain.count == 3)
        #expect(jws.signature.count == 64)
        let segments = text.split(separator: ".")
        #expect(jws.signingInput == Array((segments[0] + "." + segments[1]).utf8))
        #expect(jws.certificateDER(at: 0)?.first == 0x30)
        #expect(jws.certificateDER(at: 3) == nil)
    }

    @Test func theMissingX5CFixtureHasNoCertificateChain() {
        #expect(failure(AppleFixtureText.signedData("missingX5CHeaderClaim")) == .missingCertificateChain)
    }

    @Test func theLegacyTransactionIsNoJWS() {
        #expect(isMalformed(AppleFixtureText.signedData("legacyTransaction")))
    }

    @Test func anythingButThreeSegmentsIsMalformed() {
        #expect(isMalformed(""))
        #expect(isMalformed("a.b.c.d"))
        #expect(isMalformed("a.b"))
        #expect(isMalformed("a.b.c"))
        let good = AppleFixtureText.jws(header: AppleFixtureText.header, payload: "{}")
        #expect((try? CompactJWS.parse(good).get()) != nil)
        #expect(isMalformed(good + "."))
        #expect(isMalformed("." + good))
    }

    @Test func segmentsMustBeUnpaddedBase64URL() {
        let header = AppleFixtureText.base64URL(Array(AppleFixtureText.header.utf8))
        let payload = AppleFixtureText.base64URL(Array(#"{"a":1}"#.utf8))
        let signature = AppleFixtureText.base64URL([UInt8](repeating: 1, count: 64))
        #expect(!isMalformed("\(header).\(payload).\(signature)"))
        #expect(isMalformed("\(header).\(payload)=.\(signature)"))
        #expect(isMalformed("\(header).\(payload).\(signature)=="))
        #expect(isMalformed("\(header).\(payload) .\(signature)"))
        let standard = Data(AppleFixtureText.header.utf8).base64EncodedString()
        #expect(standard.contains("+") || standard.contains("/") || standard.contains("="))
        #expect(isMalformed("\(standard).\(payload).\(signature)"))
    }

    @Test func onlyES256IsAccepted() {
        let none = AppleFixtureText.jws(header: #"{"alg":"none","x5c":["AAAA"]}"#, payload: "{}")
        #expect(failure(none) == .unsupportedAlgorithm("none"))
        let hmac = AppleFixtureText.jws(header: #"{"alg":"HS256","x5c":["AAAA"]}"#, payload: "{}")
        #expect(failure(hmac) == .unsupportedAlgorithm("HS256"))
        let es384 = AppleFixtureText.jws(header: #"{"alg":"es256","x5c":["AAAA"]}"#, payload: "{}")
        #expect(failure(es384) == .unsupportedAlgorithm("es256"))
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"x5c":["AAAA"]}"#, payload: "{}")))
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"alg":256,"x5c":["AAAA"]}"#, payload: "{}")))
    }

    @Test func theCertificateChainMustBeANonEmptyArrayOfStrings() {
        #expect(failure(AppleFixtureText.jws(header: #"{"alg":"ES256"}"#, payload: "{}")) == .missingCertificateChain)
        #expect(failure(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":null}"#, payload: "{}"))
            == .missingCertificateChain)
        #expect(failure(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":[]}"#, payload: "{}"))
            == .missingCertificateChain)
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":"AAAA"}"#, payload: "{}")))
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":[1,2,3]}"#, payload: "{}")))
        let many = "[" + Array(repeating: #""AAAA""#, count: 9).joined(separator: ",") + "]"
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":\#(many)}"#, payload: "{}")))
        let long = String(repeating: "A", count: 8_196)
        #expect(isMalformed(AppleFixtureText.jws(header: #"{"alg":"ES256","x5c":["\#(long)"]}"#, payload: "{}")))
    }

    @Test func theHeaderMustBeAJSONObject() {
        #expect(isMalformed(AppleFixtureText.jws(header: "[]", payload: "{}")))
        #expect(isMalformed(AppleFixtureText.jws(header: "not json", payload: "{}")))
        #expect(isMalformed(AppleFixtureText.jws(header: "", payload: "{}")))
    }

    @Test func aSignatureOfAnyLengthParsesForTheVerifierToRefuseButAnEmptyOneIsMalformed() throws {
        for length in [63, 72] {
            let text = AppleFixtureText.jws(header: AppleFixtureText.header, payload: "{}", signatureLength: length)
            #expect(try CompactJWS.parse(text).get().signature.count == length)
        }
        #expect(isMalformed(AppleFixtureText.jws(header: AppleFixtureText.header, payload: "{}", signatureLength: 0)))
    }

    @Test func anEmptyPayloadIsMalformed() {
        #expect(isMalformed(AppleFixtureText.jws(header: AppleFixtureText.header, payload: "")))
    }

    @Test func textOverTheLimitIsMalformed() {
        let payload = #"{"pad":""# + String(repeating: "x", count: CompactJWS.maximumLength) + #""}"#
        #expect(isMalformed(AppleFixtureText.jws(header: AppleFixtureText.header, payload: payload)))
    }
}
