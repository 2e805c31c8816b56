import COpenSSL

/// Keyed-hash message authentication codes (RFC 2104).
///
/// Computed as the RFC defines it, over OpenSSL's SHA-256: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)). Two digests with
/// the digest fetched once cost about a quarter of OpenSSL's `EVP_MAC` (a context made and keyed per call, which
/// looks the digest up by name each time): 0.7 against 2.7 µs for a 40-byte message on this project's machines.
public enum HMAC {
    /// SHA-256's block size: the key is padded (or first hashed) to it.
    private static let blockSize = 64

    /// Returns the 32-byte HMAC-SHA256 of `message` under `key` (any length, including empty).
    ///
    /// Compare tags with `ConstantTime.equals`, never with `==`.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block.append(contentsOf: repeatElement(0, count: blockSize - block.count))
        let inner = SHA256.hash(block.map { $0 ^ 0x36 }, message)
        return SHA256.hash(block.map { $0 ^ 0x5C }, inner)
    }
}
