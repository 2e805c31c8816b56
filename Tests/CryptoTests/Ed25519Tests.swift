import Crypto
import Testing

/// Ed25519 through OpenSSL's raw-key API, against RFC 8032's test vectors (§7.1, tests 1–3).
struct Ed25519Tests {
    struct Vector: Sendable {
        let seed: String
        let publicKey: String
        let message: String
        let signature: String
    }

    static let vectors = [
        Vector(seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
               publicKey: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", message: "",
               signature: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
                   + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        Vector(seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
               publicKey: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", message: "72",
               signature: "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                   + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        Vector(seed: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
               publicKey: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", message: "af82",
               signature: "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
                   + "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ]

    /// The bytes of hex `text` (the vectors are well-formed).
    static func bytes(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    @Test(arguments: vectors) func theRFCVectorsSignAndVerify(_ vector: Vector) throws {
        let key = try #require(Ed25519PrivateKey(seed: Self.bytes(vector.seed)))
        let message = Self.bytes(vector.message)
        #expect(Hex.encode(key.publicKey.raw) == vector.publicKey)
        #expect(Hex.encode(key.signature(for: message)) == vector.signature)
        let publicKey = try #require(Ed25519PublicKey(raw: Self.bytes(vector.publicKey)))
        #expect(publicKey.isValidSignature(Self.bytes(vector.signature), for: message))
    }

    @Test func anotherMessageAFlippedBitOrAWrongLengthDoesNotVerify() throws {
        let key = try #require(Ed25519PrivateKey(seed: SecureRandom.bytes(32)))
        let message = Array(#"{"org_seq":7}"#.utf8)
        let signature = key.signature(for: message)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Array(#"{"org_seq":8}"#.utf8)))
        for index in stride(from: 0, to: 64, by: 5) {
            var flipped = signature
            flipped[index] ^= 0x01
            #expect(!key.publicKey.isValidSignature(flipped, for: message))
        }
        #expect(!key.publicKey.isValidSignature(Array(signature.prefix(63)), for: message))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message))
        let other = try #require(Ed25519PrivateKey(seed: SecureRandom.bytes(32)))
        #expect(!other.publicKey.isValidSignature(signature, for: message))
    }

    @Test func aSeedOrPublicKeyOfAnotherLengthIsRefused() {
        #expect(Ed25519PrivateKey(seed: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(Ed25519PrivateKey(seed: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(Ed25519PublicKey(raw: [UInt8](repeating: 1, count: 31)) == nil)
    }

    @Test func thePEMIsTheRFC8410SubjectPublicKeyInfo() throws {
        let publicKey = try #require(Ed25519PublicKey(raw: Self.bytes(Self.vectors[0].publicKey)))
        #expect(Hex.encode(publicKey.subjectPublicKeyInfo) == "302a300506032b6570032100" + Self.vectors[0].publicKey)
        #expect(publicKey.pem == """
            -----BEGIN PUBLIC KEY-----
            MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=
            -----END PUBLIC KEY-----

            """)
    }
}
