import Crypto
import Foundation
import Testing

/// ES256: signing with a PEM P-256 key, verifying raw `R ‖ S` signatures, and the raw/DER conversion.
struct ECDSATests {
    private let privateKey = ECDSAPrivateKey(pem: AppleFixtures.certificateText("testLeaf.key"))!
    private let leafKey = X509Certificate.certificates(pem: AppleFixtures.certificateText("testLeaf.pem"))[0]
        .ecdsaPublicKey!
    private let message = Array("header.payload".utf8)

    @Test func aSignatureIsRawRAndSOf64Bytes() {
        #expect(privateKey.signature(for: message).count == 64)
    }

    @Test func theLeafCertificatesKeyVerifiesWhatTheLeafKeySigned() {
        let signature = privateKey.signature(for: message)
        #expect(leafKey.isValidSignature(signature, for: message))
        #expect(privateKey.publicKey.isValidSignature(signature, for: message))
    }

    @Test func anotherMessageDoesNotVerify() {
        let signature = privateKey.signature(for: message)
        #expect(!leafKey.isValidSignature(signature, for: Array("header.payloaD".utf8)))
        #expect(!leafKey.isValidSignature(signature, for: []))
    }

    @Test func everyFlippedBitOfTheSignatureIsRefused() {
        let signature = privateKey.signature(for: message)
        for index in stride(from: 0, to: 64, by: 7) {
            var changed = signature
            changed[index] ^= 0x01
            #expect(!leafKey.isValidSignature(changed, for: message), "byte \(index)")
        }
    }

    @Test func signaturesOfOtherLengthsAreRefused() {
        let signature = privateKey.signature(for: message)
        #expect(!leafKey.isValidSignature(Array(signature.dropLast()), for: message))
        #expect(!leafKey.isValidSignature(signature + [0], for: message))
        #expect(!leafKey.isValidSignature([], for: message))
        #expect(!leafKey.isValidSignature([UInt8](repeating: 0, count: 64), for: message))
    }

    @Test func anotherKeyDoesNotVerify() {
        let intermediateKey = ECDSAPrivateKey(pem: AppleFixtures.certificateText("testIntermediate.key"))!
        #expect(!leafKey.isValidSignature(intermediateKey.signature(for: message), for: message))
    }

    @Test func aDERSignatureVerifiesAndConvertsBackToTheSameRawBytes() throws {
        let raw = privateKey.signature(for: message)
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        #expect(der.first == 0x30)
        #expect(leafKey.isValidSignature(der: der, for: message))
        #expect(ECDSASignature.raw(fromDER: der) == raw)
    }

    @Test func smallRAndSArePaddedTo32Bytes() throws {
        let raw = [UInt8](repeating: 0, count: 31) + [1] + [UInt8](repeating: 0, count: 30) + [1, 2]
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        #expect(der == [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x02, 0x01, 0x02])
        #expect(ECDSASignature.raw(fromDER: der) == raw)
    }

    @Test func malformedDERSignaturesAreRefused() {
        #expect(ECDSASignature.raw(fromDER: []) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x00]) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00]) == nil)
        // R of 33 significant bytes does not fit P-256.
        let wide = [0x30, 0x27, 0x02, 0x21, 0x01] + [UInt8](repeating: 0xFF, count: 32) + [0x02, 0x02, 0x01, 0x02]
        #expect(ECDSASignature.raw(fromDER: wide) == nil)
        #expect(ECDSASignature.der(fromRaw: [1, 2, 3]) == nil)
    }

    @Test func aSignatureFromAppleFixturesVerifiesWithItsLeafKey() throws {
        // renewalInfo is signed by the test leaf: header.payload under the third segment.
        let segments = AppleFixtures.signedData("renewalInfo").split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(segments[2]))
        #expect(leafKey.isValidSignature(signature, for: Array((segments[0] + "." + segments[1]).utf8)))
        #expect(!leafKey.isValidSignature(signature, for: Array((segments[0] + "." + segments[1] + "x").utf8)))
    }

    @Test func keysOtherThanPEMP256AreRefused() {
        #expect(ECDSAPrivateKey(pem: "") == nil)
        #expect(ECDSAPrivateKey(pem: AppleFixtures.certificateText("testLeaf.pem")) == nil)
        #expect(ECDSAPublicKey(subjectPublicKeyInfo: [0x30, 0x00]) == nil)
    }

    @Test func aSubjectPublicKeyInfoReadsAsAKey() throws {
        // The test leaf's key, as Apple's library spells it.
        let text = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4rWBxGmFbnPIPQI0zsBKzLxs"
            + "j8pD2vqbr0yPISUx2WQyxmrNql9fhK8YEEyYFV7++p5i4YUSR/o9uQIgCPIhrA=="
        let spki = try #require(Base64URLTestDecode.standard(text))
        let key = try #require(ECDSAPublicKey(subjectPublicKeyInfo: spki))
        #expect(key.isValidSignature(privateKey.signature(for: message), for: message))
    }
}

/// Standard base64 for test inputs (Foundation).
enum Base64URLTestDecode {
    static func standard(_ text: String) -> [UInt8]? {
        guard let data = Foundation.Data(base64Encoded: text) else { return nil }
        return [UInt8](data)
    }
}
