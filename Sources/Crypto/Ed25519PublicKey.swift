import COpenSSL

/// An Ed25519 public key (RFC 8032): 32 raw bytes, which checks signatures of its private key.
///
/// Immutable; `isValidSignature` may run on many threads at once.
public final class Ed25519PublicKey: @unchecked Sendable, Equatable {
    /// The bytes of a raw public key.
    public static let byteCount = 32
    /// The bytes of a signature.
    public static let signatureByteCount = 64
    /// The DER of a `SubjectPublicKeyInfo` of an Ed25519 key (RFC 8410) up to the 32 key bytes.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]

    /// The raw key.
    public let raw: [UInt8]
    /// The OpenSSL `EVP_PKEY *`, owned by this object (freed in `deinit`).
    private let key: OpaquePointer

    /// The key whose raw bytes are `raw`; nil unless it has 32 bytes that OpenSSL takes as a key.
    public init?(raw: [UInt8]) {
        guard raw.count == Self.byteCount else { return nil }
        let made = raw.withUnsafeBufferPointer { buffer in
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
        }
        guard let made else {
            ERR_clear_error()
            return nil
        }
        self.raw = raw
        key = made
    }

    deinit {
        EVP_PKEY_free(key)
    }

    public static func == (lhs: Ed25519PublicKey, rhs: Ed25519PublicKey) -> Bool { lhs.raw == rhs.raw }

    /// The DER `SubjectPublicKeyInfo` (44 bytes), as `openssl pkey -pubin -inform DER` reads it.
    public var subjectPublicKeyInfo: [UInt8] { Self.subjectPublicKeyInfoPrefix + raw }

    /// The PEM `PUBLIC KEY` block (with a final newline), as `openssl pkeyutl -verify -pubin -inkey` reads it.
    public var pem: String {
        // Standard base64 with padding: the URL-safe alphabet's two letters swapped back, 44 bytes → 60 characters.
        let url = Base64URL.encode(subjectPublicKeyInfo)
        let base64 = String(url.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            + String(repeating: "=", count: (4 - url.count % 4) % 4)
        return "-----BEGIN PUBLIC KEY-----\n" + base64 + "\n-----END PUBLIC KEY-----\n"
    }

    /// Whether `signature` (64 bytes) is this key's Ed25519 signature of `message`; any other length is not.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == Self.signatureByteCount else { return false }
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let result = signature.withUnsafeBufferPointer { signature in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, signature.baseAddress, signature.count, input.baseAddress, input.count)
            }
        }
        if result != 1 { ERR_clear_error() }
        return result == 1
    }
}
