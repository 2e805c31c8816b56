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

    /// Returns the 32-byte SHA-256 digest of the UTF-8 encoding of `string`.
    public static func hash(_ string: String) -> [UInt8] {
        hash(Array(string.utf8))
    }
}
