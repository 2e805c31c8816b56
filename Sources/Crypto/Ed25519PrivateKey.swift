import COpenSSL

/// An Ed25519 private key (RFC 8032) that signs messages: the deployment's audit key (issue 16) signs chain heads.
///
/// Built from its 32-byte seed — any 32 random bytes are a key — through OpenSSL's raw-key API
/// (`EVP_PKEY_new_raw_private_key`). Immutable; `signature(for:)` may run on many threads at once.
public final class Ed25519PrivateKey: @unchecked Sendable {
    /// The bytes of a seed.
    public static let seedByteCount = 32

    /// The OpenSSL `EVP_PKEY *`, owned by this object (freed in `deinit`).
    private let key: OpaquePointer
    /// The matching public key.
    public let publicKey: Ed25519PublicKey

    /// The key whose seed is `seed`; nil unless it has exactly 32 bytes.
    public init?(seed: [UInt8]) {
        guard seed.count == Self.seedByteCount else { return nil }
        let made = seed.withUnsafeBufferPointer { buffer in
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
        }
        guard let made else {
            ERR_clear_error()
            return nil
        }
        var raw = [UInt8](repeating: 0, count: Ed25519PublicKey.byteCount)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(made, &raw, &length) == 1, length == raw.count,
              let publicKey = Ed25519PublicKey(raw: raw) else {
            ERR_clear_error()
            EVP_PKEY_free(made)
            return nil
        }
        key = made
        self.publicKey = publicKey
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The Ed25519 signature of `message` (64 bytes; deterministic: the same message always gives the same bytes).
    public func signature(for message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { fatalError("EVP_DigestSignInit failed") }
        var signature = [UInt8](repeating: 0, count: Ed25519PublicKey.signatureByteCount)
        var length = signature.count
        let ok = message.withUnsafeBufferPointer { input in
            EVP_DigestSign(context, &signature, &length, input.baseAddress, input.count)
        }
        guard ok == 1, length == signature.count else { fatalError("Ed25519 signing failed") }
        return signature
    }
}
