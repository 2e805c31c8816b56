import COpenSSL
import Crypto
import Testing

/// `HMAC.sha256` (two SHA-256 digests over the padded key) against OpenSSL's own `EVP_MAC` HMAC, for keys on both
/// sides of the 64-byte block and messages of many lengths.
struct HMACReferenceTests {
    /// OpenSSL's HMAC-SHA256, as `HMAC` computed it before: a context made and keyed for the one tag.
    private func openSSLTag(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let mac = EVP_MAC_fetch(nil, "HMAC", nil)
        defer { EVP_MAC_free(mac) }
        let context = EVP_MAC_CTX_new(mac)
        defer { EVP_MAC_CTX_free(context) }
        var tag = [UInt8](repeating: 0, count: 32)
        var length = 0
        let ok = "digest".withCString { name in
            "SHA256".withCString { digest in
                var params = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                let keyBytes = key.isEmpty ? [0] : key
                return keyBytes.withUnsafeBufferPointer { keyBuffer in
                    message.withUnsafeBufferPointer { input in
                        tag.withUnsafeMutableBufferPointer { output in
                            EVP_MAC_init(context, keyBuffer.baseAddress, key.count, &params) == 1
                                && EVP_MAC_update(context, input.baseAddress, input.count) == 1
                                && EVP_MAC_final(context, output.baseAddress, &length, output.count) == 1
                        }
                    }
                }
            }
        }
        #expect(ok && length == 32)
        return tag
    }

    @Test func everyKeyLengthUpToThreeBlocksGivesOpenSSLsTag() {
        for keyLength in 0...192 {
            let key = SecureRandom.bytes(keyLength)
            let message = SecureRandom.bytes(keyLength * 7 % 300)
            #expect(HMAC.sha256(key: key, message: message) == openSSLTag(key: key, message: message),
                    "key of \(keyLength) bytes")
        }
    }

    @Test func aKeyOfExactlyOneBlockIsUsedAsItIsNotHashed() {
        let key = [UInt8](repeating: 0x5A, count: 64)
        let message = Array("one block".utf8)
        #expect(HMAC.sha256(key: key, message: message) == openSSLTag(key: key, message: message))
        #expect(HMAC.sha256(key: key, message: message) != HMAC.sha256(key: SHA256.hash(key), message: message))
    }

    @Test func aDigestOfTwoPartsIsTheDigestOfThemJoined() {
        for length in [0, 1, 55, 56, 63, 64, 65, 200] {
            let first = SecureRandom.bytes(length)
            let second = SecureRandom.bytes(200 - length)
            #expect(SHA256.hash(first, second) == SHA256.hash(first + second), "split at \(length)")
        }
        #expect(Hex.encode(SHA256.hash([], []))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
