import Crypto
import Testing

/// RS256 signing with a PEM private key, as a Google service-account key file holds it.
struct RSAPrivateKeyTests {
    private let signature = Base64URL.decode(RSATestKey.signature)!

    @Test func signingIsByteForByteWhatTheOpenSSLCommandLineMakes() {
        // RSASSA-PKCS1-v1_5 is deterministic: the same key and message give the same signature everywhere.
        let key = RSAPrivateKey(pem: RSATestKey.pkcs8PEM)!
        #expect(key.signRS256(RSATestKey.message) == signature)
    }

    @Test func aPKCS1KeyIsReadToo() {
        let key = RSAPrivateKey(pem: RSATestKey.pkcs1PEM)!
        #expect(key.signRS256(RSATestKey.message) == signature)
    }

    @Test func thePublicHalfIsTheJWKOfTheKey() {
        let key = RSAPrivateKey(pem: RSATestKey.pkcs8PEM)!
        #expect(key.publicKey.components.modulus == Base64URL.decode(RSATestKey.modulus)!)
        #expect(key.publicKey.components.exponent == [0x01, 0x00, 0x01])
        #expect(key.publicKey.pem == RSATestKey.publicPEM)
    }

    @Test func theKeyWritesItselfAsTheSamePKCS8PEM() {
        #expect(RSAPrivateKey(pem: RSATestKey.pkcs8PEM)!.pkcs8PEM == RSATestKey.pkcs8PEM)
        #expect(RSAPrivateKey(pem: RSATestKey.pkcs1PEM)!.pkcs8PEM == RSATestKey.pkcs8PEM)
    }

    @Test func anEncryptedKeyIsRefusedWithoutAskingForAPassphrase() {
        #expect(RSAPrivateKey(pem: RSATestKey.encryptedPEM) == nil)
    }

    @Test func textThatIsNotAnRSAPrivateKeyIsRefused() {
        #expect(RSAPrivateKey(pem: "") == nil)
        #expect(RSAPrivateKey(pem: "not a key") == nil)
        #expect(RSAPrivateKey(pem: RSATestKey.publicPEM) == nil)
        #expect(RSAPrivateKey(pem: RSATestKey.ecPEM) == nil)
        #expect(RSAPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") == nil)
    }

    @Test func aGeneratedKeySignsWhatItsPublicHalfVerifies() {
        let key = RSAPrivateKey.generate()
        let message = Array("header.claims".utf8)
        let signature = key.signRS256(message)
        #expect(signature.count == 256)
        #expect(key.publicKey.bitCount == 2048)
        #expect(key.publicKey.isValidRS256Signature(signature, of: message))
        let reread = RSAPrivateKey(pem: key.pkcs8PEM)!
        #expect(reread.signRS256(message) == signature)
    }

    @Test func theKeyNeverPrintsItsMaterial() {
        let key = RSAPrivateKey(pem: RSATestKey.pkcs8PEM)!
        #expect("\(key)" == "RSAPrivateKey(<redacted>, 2048 bits)")
        #expect(!String(reflecting: key).contains("MII"))
    }
}
