@testable import Crypto
import Testing

@Suite struct AESGCMTests {
    /// An AES-256 test case of McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", appendix B.
    struct Vector: Sendable, CustomTestStringConvertible {
        let number: Int
        let key: String
        let nonce: String
        let plaintext: String
        let associatedData: String
        let ciphertext: String
        let tag: String

        var testDescription: String { "GCM test case \(number)" }
    }

    static let key15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let plaintext15 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let ciphertext15 = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
        + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

    static let vectors: [Vector] = [
        Vector(number: 13, key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
               plaintext: "", associatedData: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(number: 14, key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
               plaintext: String(repeating: "00", count: 16), associatedData: "",
               ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(number: 15, key: key15, nonce: "cafebabefacedbaddecaf888", plaintext: plaintext15, associatedData: "",
               ciphertext: ciphertext15, tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(number: 16, key: key15, nonce: "cafebabefacedbaddecaf888", plaintext: String(plaintext15.dropLast(8)),
               associatedData: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
               ciphertext: String(ciphertext15.dropLast(8)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    private func bytes(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

    @Test(arguments: vectors)
    func sealingWithTheVectorsNonceGivesItsCiphertextAndTag(vector: Vector) {
        let sealed = AESGCM.seal(bytes(vector.plaintext), key: bytes(vector.key), nonce: bytes(vector.nonce),
                                 associatedData: bytes(vector.associatedData))
        #expect(Hex.encode(sealed) == vector.nonce + vector.ciphertext + vector.tag)
    }

    @Test(arguments: vectors)
    func openingTheVectorGivesItsPlaintext(vector: Vector) {
        let sealed = bytes(vector.nonce + vector.ciphertext + vector.tag)
        let opened = AESGCM.open(sealed, key: bytes(vector.key), associatedData: bytes(vector.associatedData))
        #expect(opened.map(Hex.encode) == vector.plaintext)
    }

    @Test func aSealedBoxIsNonceCiphertextTagAndOpensBack() {
        let key = SecureRandom.bytes(32)
        let plaintext = Array("buyer@example.com".utf8)
        let sealed = AESGCM.seal(plaintext, key: key, associatedData: Array("aad".utf8))
        #expect(sealed.count == 12 + plaintext.count + 16)
        #expect(AESGCM.open(sealed, key: key, associatedData: Array("aad".utf8)) == plaintext)
        #expect(AESGCM.open(AESGCM.seal([], key: key, associatedData: []), key: key, associatedData: []) == [])
    }

    @Test func everySealUsesAFreshNonce() {
        let key = SecureRandom.bytes(32)
        let boxes = (0..<50).map { _ in AESGCM.seal(Array("same".utf8), key: key, associatedData: []) }
        #expect(Set(boxes.map { Array($0.prefix(12)) }).count == 50)
    }

    @Test func changingAnyByteOfTheBoxIsRefused() {
        let key = SecureRandom.bytes(32)
        let associatedData = Array("org|subject|email".utf8)
        let sealed = AESGCM.seal(Array("buyer@example.com".utf8), key: key, associatedData: associatedData)
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(AESGCM.open(tampered, key: key, associatedData: associatedData) == nil, "byte \(index)")
        }
        #expect(AESGCM.open(Array(sealed.dropLast()), key: key, associatedData: associatedData) == nil)
        #expect(AESGCM.open(sealed + [0], key: key, associatedData: associatedData) == nil)
        #expect(AESGCM.open(Array(sealed.prefix(27)), key: key, associatedData: associatedData) == nil)
        #expect(AESGCM.open([], key: key, associatedData: associatedData) == nil)
    }

    @Test func otherAssociatedDataIsRefused() {
        let key = SecureRandom.bytes(32)
        let sealed = AESGCM.seal(Array("x".utf8), key: key, associatedData: Array("field=email".utf8))
        #expect(AESGCM.open(sealed, key: key, associatedData: Array("field=ip".utf8)) == nil)
        #expect(AESGCM.open(sealed, key: key, associatedData: []) == nil)
    }

    @Test func anotherKeyIsRefused() {
        let sealed = AESGCM.seal(Array("x".utf8), key: SecureRandom.bytes(32), associatedData: [])
        #expect(AESGCM.open(sealed, key: SecureRandom.bytes(32), associatedData: []) == nil)
    }
}
