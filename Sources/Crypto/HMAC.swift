import COpenSSL

/// OpenSSL's HMAC implementation, fetched once: fetching is slow and the `EVP_MAC` is immutable and thread-safe.
nonisolated(unsafe) let hmacAlgorithm: OpaquePointer = {
    guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { fatalError("OpenSSL has no HMAC") }
    return mac
}()

/// Keyed-hash message authentication codes (RFC 2104).
public enum HMAC {
    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any length, including empty).
    ///
    /// Compare tags with `ConstantTime.equals`, never with `==`.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MAC_CTX_new(hmacAlgorithm) else { fatalError("EVP_MAC_CTX_new failed") }
        defer { EVP_MAC_CTX_free(context) }
        var tag = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length = 0
        // OSSL_PARAM keeps raw pointers to the strings: everything runs inside the withCString closures.
        let ok = OSSL_MAC_PARAM_DIGEST.withCString { name in
            "SHA256".withCString { digest in
                var params = [
                    OSSL_PARAM_construct_utf8_string(name, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                // A zero-length key still needs a non-null pointer, or OpenSSL keeps the (absent) old key.
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
        guard ok, length == SHA256.byteCount else { fatalError("HMAC-SHA256 failed in OpenSSL") }
        return tag
    }
}
