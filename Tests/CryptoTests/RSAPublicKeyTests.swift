import Crypto
import Foundation
import Synchronization
import Testing

/// RS256 verification with keys from a JWK's `n` and `e`, checked against signatures made by the OpenSSL command line.
struct RSAPublicKeyTests {
    private let modulus = Base64URL.decode(RSATestKey.modulus)!
    private let exponent = Base64URL.decode(RSATestKey.exponent)!
    private let signature = Base64URL.decode(RSATestKey.signature)!

    private var key: RSAPublicKey { RSAPublicKey(modulus: modulus, exponent: exponent)! }

    @Test func aKeyFromTheJWKComponentsVerifiesASignatureMadeByTheOpenSSLCommandLine() {
        #expect(key.isValidRS256Signature(signature, of: RSATestKey.message))
        #expect(key.bitCount == 2048)
    }

    @Test func theKeyFromTheJWKComponentsIsTheKeyOpenSSLWroteAsPEM() {
        #expect(key.pem == RSATestKey.publicPEM)
        let fromPEM = RSAPublicKey(pem: RSATestKey.publicPEM)!
        #expect(fromPEM.components.modulus == modulus)
        #expect(fromPEM.components.exponent == exponent)
        #expect(fromPEM.isValidRS256Signature(signature, of: RSATestKey.message))
    }

    @Test func aChangedMessageDoesNotVerify() {
        var message = RSATestKey.message
        message[0] ^= 1
        #expect(!key.isValidRS256Signature(signature, of: message))
        #expect(!key.isValidRS256Signature(signature, of: RSATestKey.message + [0]))
        #expect(!key.isValidRS256Signature(signature, of: []))
    }

    @Test func everyChangedSignatureByteFailsToVerify() {
        for index in stride(from: 0, to: signature.count, by: 17) {
            var changed = signature
            changed[index] ^= 0x40
            #expect(!key.isValidRS256Signature(changed, of: RSATestKey.message), "byte \(index)")
        }
    }

    @Test func aSignatureOfTheWrongLengthIsRefusedBeforeOpenSSLSeesIt() {
        #expect(!key.isValidRS256Signature(Array(signature.dropLast()), of: RSATestKey.message))
        #expect(!key.isValidRS256Signature([0] + signature, of: RSATestKey.message))
        #expect(!key.isValidRS256Signature([], of: RSATestKey.message))
    }

    @Test func anotherKeysSignatureDoesNotVerify() {
        let other = RSAPrivateKey.generate()
        #expect(!key.isValidRS256Signature(other.signRS256(RSATestKey.message), of: RSATestKey.message))
    }

    @Test func leadingZeroBytesOfTheComponentsAreIgnored() {
        let padded = RSAPublicKey(modulus: [0, 0] + modulus, exponent: [0] + exponent)!
        #expect(padded.isValidRS256Signature(signature, of: RSATestKey.message))
        #expect(padded.components.modulus == modulus)
    }

    @Test func moduliOutsideTwoThousandFortyEightToEightThousandOneHundredNinetyTwoBitsAreRefused() {
        #expect(RSAPublicKey(modulus: Array(modulus.prefix(128)), exponent: exponent) == nil)
        #expect(RSAPublicKey(modulus: Array(modulus.dropFirst()), exponent: exponent) == nil)
        #expect(RSAPublicKey(modulus: [0x7F] + Array(modulus.dropFirst()), exponent: exponent) == nil)
        #expect(RSAPublicKey(modulus: [UInt8](repeating: 0xFF, count: 1025), exponent: exponent) == nil)
        #expect(RSAPublicKey(modulus: [], exponent: exponent) == nil)
    }

    @Test func anEvenModulusIsRefused() {
        #expect(RSAPublicKey(modulus: Array(modulus.dropLast()) + [0x02], exponent: exponent) == nil)
    }

    @Test func exponentsThatAreEvenOneEmptyOrLongerThanEightBytesAreRefused() {
        #expect(RSAPublicKey(modulus: modulus, exponent: [0x01, 0x00, 0x00]) == nil)
        #expect(RSAPublicKey(modulus: modulus, exponent: [0x01]) == nil)
        #expect(RSAPublicKey(modulus: modulus, exponent: [0x00, 0x01]) == nil)
        #expect(RSAPublicKey(modulus: modulus, exponent: []) == nil)
        #expect(RSAPublicKey(modulus: modulus, exponent: [UInt8](repeating: 0x01, count: 9)) == nil)
        #expect(RSAPublicKey(modulus: modulus, exponent: [0x03]) != nil)
    }

    @Test func pemThatIsNotAnRSAPublicKeyIsRefused() {
        #expect(RSAPublicKey(pem: "") == nil)
        #expect(RSAPublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") == nil)
        #expect(RSAPublicKey(pem: RSATestKey.pkcs8PEM) == nil)
        let ecPublic = RSAPublicKey(pem: RSATestKey.ecPEM)
        #expect(ecPublic == nil)
    }

    @Test func oneKeyVerifiesOnManyThreadsAtOnce() {
        let key = self.key
        let signature = self.signature
        let results = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if key.isValidRS256Signature(signature, of: RSATestKey.message) { results.withLock { $0 += 1 } }
        }
        #expect(results.withLock { $0 } == 64)
    }
}
