import COpenSSL

/// The SHA-256 digest algorithm from OpenSSL's default provider, fetched once and shared by all threads.
///
/// `EVP_MD` objects are immutable and reference-counted; a fetched one may be used from any thread.
nonisolated(unsafe) let sha256Digest: OpaquePointer = {
    guard let digest = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("OpenSSL has no SHA256 digest") }
    return digest
}()

/// SHA-256 (FIPS 180-4) digests.
public enum SHA256 {
    /// The number of bytes in a digest.
    public static let byteCount = 32

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, sha256Digest, nil)
            }
        }
        guard ok == 1, length == byteCount else { fatalError("EVP_Digest(SHA256) failed") }
        return digest
    }

    /// Returns the 32-byte SHA-256 digest of `first` followed by `second`, without joining them.
    public static func hash(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = first.withUnsafeBytes { head in
            second.withUnsafeBytes { tail in
                digest.withUnsafeMutableBufferPointer { output in
                    EVP_DigestInit_ex2(context, sha256Digest, nil) == 1
                        && EVP_DigestUpdate(context, head.baseAddress, head.count) == 1
                        && EVP_DigestUpdate(context, tail.baseAddress, tail.count) == 1
                        && EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1
                }
            }
        }
        guard ok, length == byteCount else { fatalError("SHA-256 failed in OpenSSL") }
        return digest
    }

    /// Returns the 32-byte SHA-256 digest of the UTF-8 encoding of `string`.
    public static func hash(_ string: String) -> [UInt8] {
        hash(Array(string.utf8))
    }
}
