import COpenSSL

/// An ECDSA private key on NIST P-256 that makes ES256 signatures (raw `R ‖ S`, as JWS wants them).
///
/// For tests and benchmarks that play the App Store: the service itself only verifies. Immutable; `signature` may
/// run on many threads at once.
public final class ECDSAPrivateKey: @unchecked Sendable {
    /// The OpenSSL `EVP_PKEY *`, owned by this object (freed in `deinit`).
    private let key: OpaquePointer

    /// Reads a PEM private key (`EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY`, unencrypted); nil unless it is one EC key
    /// on P-256.
    public init?(pem: String) {
        let bytes = Array(pem.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        guard ECDSAPublicKey.isP256(parsed) else {
            EVP_PKEY_free(parsed)
            return nil
        }
        key = parsed
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The matching public key.
    public var publicKey: ECDSAPublicKey {
        guard let publicKey = ECDSAPublicKey(retaining: key) else { fatalError("a P-256 key lost its curve") }
        return publicKey
    }

    /// An ES256 signature of `message`: ECDSA with SHA-256 and a fresh random nonce, as raw `R ‖ S` (64 bytes).
    public func signature(for message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, sha256Digest, nil, key) == 1 else {
            fatalError("EVP_DigestSignInit failed")
        }
        var length = 0
        let ok = message.withUnsafeBufferPointer { input -> [UInt8]? in
            guard EVP_DigestSign(context, nil, &length, input.baseAddress, input.count) == 1 else { return nil }
            var der = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &der, &length, input.baseAddress, input.count) == 1 else { return nil }
            return Array(der.prefix(length))
        }
        guard let der = ok, let raw = ECDSASignature.raw(fromDER: der) else { fatalError("ES256 signing failed") }
        return raw
    }
}
