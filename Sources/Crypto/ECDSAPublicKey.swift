import COpenSSL

/// An ECDSA public key on NIST P-256 (prime256v1), for ES256 (ECDSA with SHA-256, RFC 7518 §3.4).
///
/// Immutable; `isValidSignature` may run on many threads at once.
public final class ECDSAPublicKey: @unchecked Sendable {
    /// The OpenSSL `EVP_PKEY *`, owned by this object (one reference, dropped in `deinit`).
    let key: OpaquePointer

    /// Takes a reference of its own to `key`; nil unless it is an EC key on P-256.
    init?(retaining key: OpaquePointer) {
        guard ECDSAPublicKey.isP256(key) else { return nil }
        EVP_PKEY_up_ref(key)
        self.key = key
    }

    /// Parses a DER `SubjectPublicKeyInfo`; nil unless it is exactly one EC public key on P-256.
    public convenience init?(subjectPublicKeyInfo der: [UInt8]) {
        guard !der.isEmpty, der.count <= Int(Int32.max) else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let key = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        defer { EVP_PKEY_free(parsed) }
        self.init(retaining: parsed)
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Whether `signature`, raw `R ‖ S` (64 bytes, as in a JWS), is an ES256 signature of `message` by this key.
    ///
    /// Any other signature length is simply not valid.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
        return isValidSignature(der: der, for: message)
    }

    /// Whether `der`, a DER `ECDSA-Sig-Value`, is an ECDSA-with-SHA-256 signature of `message` by this key.
    public func isValidSignature(der: [UInt8], for message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, sha256Digest, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = der.withUnsafeBufferPointer { signature in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        if result != 1 { ERR_clear_error() }
        return result == 1
    }

    /// Whether `key` is an EC key whose group is P-256.
    static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return false
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }
}
