import Commands
import Crypto
import Foundation
import Testing
import TestSupport

/// A signed notification changed after signing — header, payload, signature, each certificate — is refused; so are
/// chains that do not end at the configured root.
struct AppleTamperingTests {
    private let verifier = AppleVerifiers.test
    private let signer = AppleSigner.test

    private func verify(_ text: String) -> Result<VerifiedAppleNotification, AppleVerificationFailure> {
        verifier.verifyNotification(signedPayload: text, bundleId: "com.example", appAppleId: 1234,
                                    now: AppleVerifiers.now)
    }

    private var signed: String { signer.sign(ApplePayloads.notification()) }

    private func segments(_ text: String) -> [String] {
        text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    private func json(_ segment: String) -> [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(Base64URL.decode(segment)!)) as! [String: Any]
    }

    private func encode(_ object: [String: Any]) -> String {
        Base64URL.encode(Array(try! JSONSerialization.data(withJSONObject: object, options: .sortedKeys)))
    }

    /// `signed` with its header replaced by `header` (the old signature kept).
    private func withHeader(_ header: [String: Any]) -> String {
        let parts = segments(signed)
        return encode(header) + "." + parts[1] + "." + parts[2]
    }

    /// The x5c entry at `index` with one byte of its DER changed where `needle` (ASCII) first occurs.
    private func tamperedCertificate(_ index: Int, needle: String) -> [String] {
        var chain = signer.chain
        var der = [UInt8](Data(base64Encoded: chain[index])!)
        let bytes = Array(needle.utf8)
        let at = (0...(der.count - bytes.count)).first { Array(der[$0..<($0 + bytes.count)]) == bytes }!
        der[at] ^= 0x20
        chain[index] = Data(der).base64EncodedString()
        return chain
    }

    @Test func theUntouchedNotificationVerifies() {
        #expect(verify(signed).value != nil)
    }

    @Test func aHeaderChangedAfterSigningIsRefused() {
        var header = json(segments(signed)[0])
        header["kid"] = "attacker"
        #expect(verify(withHeader(header)).isUnauthorized(.invalidSignature))
    }

    @Test func aHeaderSwitchedToAnotherAlgorithmIsRefused() {
        for algorithm in ["none", "HS256", "ES384", "RS256"] {
            var header = json(segments(signed)[0])
            header["alg"] = algorithm
            #expect(verify(withHeader(header)).isUnauthorized(.unsupportedAlgorithm), "\(algorithm)")
        }
    }

    @Test func aPayloadChangedAfterSigningIsRefused() {
        let parts = segments(signed)
        var payload = json(parts[1])
        payload["notificationType"] = "REFUND"
        #expect(verify(parts[0] + "." + encode(payload) + "." + parts[2]).isUnauthorized(.invalidSignature))
    }

    @Test func aPayloadSignedForOneAppAndResignedByNobodyIsRefused() {
        // Another app's notification: re-signing needs the key, so the signature of the original stays.
        let other = signer.sign(ApplePayloads.notification(bundleId: "com.example.other"))
        let parts = segments(signed)
        let otherParts = segments(other)
        #expect(verify(parts[0] + "." + otherParts[1] + "." + parts[2]).isUnauthorized(.invalidSignature))
    }

    @Test func everyChangedByteOfTheSignatureIsRefused() {
        let parts = segments(signed)
        let signature = Base64URL.decode(parts[2])!
        for index in stride(from: 0, to: 64, by: 9) {
            var changed = signature
            changed[index] ^= 0x80
            let text = parts[0] + "." + parts[1] + "." + Base64URL.encode(changed)
            #expect(verify(text).isUnauthorized(.invalidSignature), "byte \(index)")
        }
    }

    @Test func aSignatureOfAnotherLengthDoesNotVerifyAndAnEmptyOneIsMalformed() {
        let parts = segments(signed)
        let signature = Base64URL.decode(parts[2])!
        #expect(verify(parts[0] + "." + parts[1] + "." + Base64URL.encode(Array(signature.dropLast())))
            .isUnauthorized(.invalidSignature))
        #expect(verify(parts[0] + "." + parts[1] + "." + Base64URL.encode(signature + [0]))
            .isUnauthorized(.invalidSignature))
        #expect(verify(parts[0] + "." + parts[1] + ".").isMalformed(.malformedJWS))
    }

    @Test func aSignatureInDERInsteadOfRawDoesNotVerify() {
        let parts = segments(signed)
        let der = ECDSASignature.der(fromRaw: Base64URL.decode(parts[2])!)!
        #expect(verify(parts[0] + "." + parts[1] + "." + Base64URL.encode(der)).isUnauthorized(.invalidSignature))
    }

    @Test func aPayloadChangedInTransitIntoTextThatIsNoPayloadIsUnauthorizedNotMalformed() {
        let parts = segments(signed)
        for replacement in [Base64URL.encode(Array("{".utf8)), Base64URL.encode(Array("[1,2]".utf8)),
                            Base64URL.encode(Array(#"{"notificationType":"TEST"}"#.utf8))] {
            #expect(verify(parts[0] + "." + replacement + "." + parts[2]).isUnauthorized(.invalidSignature),
                    "\(replacement)")
        }
        var bytes = Base64URL.decode(parts[1])!
        bytes[0] = UInt8(ascii: "x")   // the payload's opening brace: no JSON any more
        #expect(verify(parts[0] + "." + Base64URL.encode(bytes) + "." + parts[2]).isUnauthorized(.invalidSignature))
    }

    @Test func aChangedLeafCertificateIsRefused() {
        let chain = tamperedCertificate(0, needle: "Leaf")
        #expect(verify(signer.with(chain: chain).sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func aChangedIntermediateCertificateIsRefused() {
        let chain = tamperedCertificate(1, needle: "Intermediate")
        #expect(verify(signer.with(chain: chain).sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func theRootInX5CIsNeverTrustedSoChangingItChangesNothing() {
        // x5c[2] is not used: the chain ends at the configured root. A changed or missing-in-spirit root still
        // verifies, and a rogue root there is not trusted (next test).
        let chain = tamperedCertificate(2, needle: "Cupertino")
        #expect(verify(signer.with(chain: chain).sign(ApplePayloads.notification())).value != nil)
        let garbage = signer.with(chain: [signer.chain[0], signer.chain[1], "not base64 at all"])
        #expect(verify(garbage.sign(ApplePayloads.notification())).value != nil)
    }

    @Test func aChainEndingAtARootOfItsOwnIsRefused() {
        #expect(verify(AppleSigner.rogue.sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
        // Even when x5c[2] is the configured root itself.
        let posing = AppleSigner.rogue.with(chain: [AppleSigner.rogue.chain[0], AppleSigner.rogue.chain[1],
                                                    signer.chain[2]])
        #expect(verify(posing.sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func theTestLeafUnderARogueIntermediateIsRefused() {
        let mixed = signer.with(chain: [signer.chain[0], AppleSigner.rogue.chain[1], signer.chain[2]])
        #expect(verify(mixed.sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func aLeafSignedByAnotherKeyThanItsCertificateIsRefused() {
        let wrongKey = AppleSigner(key: ECDSAPrivateKey(pem: AppleFixtures.certificateText("testIntermediate.key"))!,
                                   chain: signer.chain)
        #expect(verify(wrongKey.sign(ApplePayloads.notification())).isUnauthorized(.invalidSignature))
    }

    @Test func aLeafDirectlyUnderTheRootIsNoAppStoreChain() {
        let direct = signer.with(chain: [AppleSigner.base64(pem: ExtraChains.leafUnderRoot), signer.chain[1],
                                         signer.chain[2]])
        #expect(verify(direct.sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func aLeafWithAP384KeyIsRefused() {
        let p384 = signer.with(chain: [AppleSigner.base64(pem: ExtraChains.p384Leaf), signer.chain[1],
                                       signer.chain[2]])
        #expect(verify(p384.sign(ApplePayloads.notification())).isUnauthorized(.unsupportedKey))
    }

    @Test func theCertificatesInTheWrongOrderAreRefused() {
        let swapped = signer.with(chain: [signer.chain[1], signer.chain[0], signer.chain[2]])
        #expect(verify(swapped.sign(ApplePayloads.notification())).isUnauthorized(.untrustedChain))
    }

    @Test func anythingButThreeCertificatesIsAChainThatDoesNotVerify() {
        let two = signer.with(chain: Array(signer.chain.prefix(2)))
        #expect(verify(two.sign(ApplePayloads.notification())).isUnauthorized(.wrongCertificateCount))
        let four = signer.with(chain: signer.chain + [signer.chain[2]])
        #expect(verify(four.sign(ApplePayloads.notification())).isUnauthorized(.wrongCertificateCount))
    }

    @Test func certificatesThatAreNoCertificatesAreAChainThatDoesNotVerify() {
        let notBase64 = signer.with(chain: ["%%%", signer.chain[1], signer.chain[2]])
        #expect(verify(notBase64.sign(ApplePayloads.notification())).isUnauthorized(.malformedCertificate))
        let notDER = signer.with(chain: [signer.chain[0], Data("hello".utf8).base64EncodedString(), signer.chain[2]])
        #expect(verify(notDER.sign(ApplePayloads.notification())).isUnauthorized(.malformedCertificate))
        let urlAlphabet = signer.chain[0].replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        if urlAlphabet != signer.chain[0] {
            let chain = [urlAlphabet, signer.chain[1], signer.chain[2]]
            #expect(verify(signer.with(chain: chain).sign(ApplePayloads.notification()))
                .isUnauthorized(.malformedCertificate))
        }
    }
}
