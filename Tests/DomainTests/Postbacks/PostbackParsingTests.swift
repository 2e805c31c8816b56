import Domain
import Foundation
import Testing

/// Reading postback bodies: what each refusal names (Apple's own examples are read in StoreTests, with their keys).
@Suite struct PostbackParsingTests {
    private let v4 = #"""
        {"version":"4.0","ad-network-id":"com.example","source-identifier":"5239","app-id":525463029,
         "transaction-id":"t-1","redownload":false,"source-app-id":1234567891,"fidelity-type":1,"did-win":true,
         "postback-sequence-index":2,"attribution-signature":"MEUCIQD4rX6eh38qEhuUKHdap345UbmlzA7KEZ1bhWZuYM8MJwIg"}
        """#

    private func skan(_ text: String) -> Result<SKANPostback, IngestRefusal> { SKANPostback.parse(Array(text.utf8)) }

    private func refusal(_ text: String) -> String? {
        if case .failure(let refusal) = skan(text) { return refusal.detail }
        return nil
    }

    private func with(_ replacements: [(String, String)]) -> String {
        replacements.reduce(v4) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test func aVersion4PostbackSignsItsFieldsInApplesOrderWithSourceAppId() throws {
        let postback = try skan(v4).get()
        let expected = ["4.0", "com.example", "5239", "525463029", "t-1", "false", "1234567891", "1", "true", "2"]
        #expect(postback.signedMessage == Array(expected.joined(separator: "\u{2063}").utf8))
        #expect(postback.facts.sourceIdentifier == "5239" && postback.facts.sequenceIndex == 2)
        #expect(postback.facts.sourceAppId == 1_234_567_891 && postback.facts.kind == .skan)
    }

    @Test func eachWrongMemberIsRefusedByName() {
        #expect(refusal(with([(#""4.0""#, #""2.2""#)])) == "version must be 3.0 or 4.0")
        #expect(refusal(with([(#""5239""#, #""5""#)])) == "source-identifier must be 2 to 4 digits")
        #expect(refusal(with([(#""5239""#, #""52a9""#)])) == "source-identifier must be 2 to 4 digits")
        #expect(refusal(with([(#""did-win":true"#, #""did-win":1"#)])) == "did-win must be true or false")
        #expect(refusal(with([(#""redownload":false"#, #""redownload":"false""#)]))
                == "redownload must be true or false")
        #expect(refusal(with([(#""postback-sequence-index":2"#, #""postback-sequence-index":3"#)]))
                == "postback-sequence-index must be an integer from 0 to 2")
        #expect(refusal(with([(#""app-id":525463029"#, #""app-id":0"#)])) == "app-id must be an integer from 1")
        #expect(refusal(with([(#""fidelity-type":1"#, #""fidelity-type":1.5"#)]))
                == "fidelity-type must be an integer from 0 to 1")
        #expect(refusal(with([(#""t-1""#, #""""#)])) == "transaction-id must be a string of 1 to 128 characters")
        #expect(refusal(with([(#""source-app-id":1234567891"#, #""source-app-id":1,"source-domain":"a.example""#)]))
                == "source-domain must be a domain of a version 4.0 web ad, without source-app-id")
        #expect(refusal(with([(#""MEUCIQD4"#, #""!!!"#)]))
                == "attribution-signature must be the base64 of a DER ECDSA signature")
        #expect(refusal(with([(#""did-win":true"#, #""did-win":true,"conversion-value":64"#)]))
                == "conversion-value must be an integer from 0 to 63")
        #expect(refusal("[]") == "body must be one JSON object")
    }

    @Test func aVersion3PostbackUsesItsCampaignIdAndHasNoSequenceIndex() throws {
        let text = with([(#""4.0""#, #""3.0""#), (#""source-identifier":"5239""#, #""campaign-id":42"#),
                         (#""postback-sequence-index":2,"#, "")])
        let postback = try skan(text).get()
        let expected = ["3.0", "com.example", "42", "525463029", "t-1", "false", "1234567891", "1", "true"]
        #expect(postback.signedMessage == Array(expected.joined(separator: "\u{2063}").utf8))
        #expect(postback.facts.sourceIdentifier == "42" && postback.facts.sequenceIndex == nil)
    }

    @Test func anAdAttributionKitPostbackNeedsACompactES256JWS() {
        func detail(_ jws: String) -> String? {
            if case .failure(let refusal) = AAKPostback.parse(Array(#"{"jws-string":"\#(jws)"}"#.utf8)) {
                return refusal.detail
            }
            return nil
        }
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        #expect(detail("a.b") == "jws-string must be a compact JWS: three base64url parts")
        #expect(detail(part(#"{"alg":"RS256","kid":"k"}"#) + "." + part("{}") + ".AA")
                == "jws-string's alg must be ES256")
        #expect(detail(part(#"{"alg":"ES256","kid":"k"}"#) + "." + part(#"{"postback-identifier":"p"}"#) + ".AA")
                == "ad-network-identifier must be a string of 1 to 255 characters")
        #expect(AAKPostback.parse(Array("{}".utf8)) == .failure(.invalid(
            "jws-string must be a string of 1 to 4096 characters")))
    }
}
