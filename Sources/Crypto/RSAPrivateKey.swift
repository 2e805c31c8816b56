import COpenSSL

/// An RSA private key that makes RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256), e.g. the OAuth 2 JWT-bearer
/// assertion of a Google service account.
///
/// Read from an unencrypted PEM key (`PRIVATE KEY`, PKCS#8, as in a service-account JSON's `private_key`; or
/// `RSA PRIVATE KEY`, PKCS#1). Immutable: one key may sign on any number of threads at once. Never printed.
public final class RSAPrivateKey: @unchecked Sendable, CustomStringConvertible {
    /// The `EVP_PKEY`, owned by this object and freed in `deinit`.
    private let key: OpaquePointer

    private init?(owning key: OpaquePointer) {
        guard EVP_PKEY_is_a(key, "RSA") == 1, RSAPublicKey.modulusBits.contains(Int(EVP_PKEY_get_bits(key))) else {
            EVP_PKEY_free(key)
            return nil
        }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The key in `pem`; nil when it is not an unencrypted RSA private key with a modulus of
    /// `RSAPublicKey.modulusBits` (an encrypted key is refused without asking for a passphrase).
    public convenience init?(pem: String) {
        // With no callback, OpenSSL takes the last argument as the passphrase: an empty one makes an encrypted key
        // fail instead of prompting on the terminal.
        let key = RSAKeyBIO.reading(pem) { bio in
            "".withCString { PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        }
        guard let key else {
            ERR_clear_error()
            return nil
        }
        self.init(owning: key)
    }

    /// A fresh key of `bits` bits (public exponent 65537), for tests and tools; `bits` must be in
    /// `RSAPublicKey.modulusBits`. Takes tens to hundreds of milliseconds.
    public static func generate(bits: Int = 2048) -> RSAPrivateKey {
        precondition(RSAPublicKey.modulusBits.contains(bits), "RSAPrivateKey.generate: unsupported size \(bits)")
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { fatalError("OpenSSL has no RSA") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
              EVP_PKEY_generate(context, &key) == 1, let key, let generated = RSAPrivateKey(owning: key) else {
            fatalError("RSA key generation failed in OpenSSL")
        }
        return generated
    }

    /// The matching public key.
    public var publicKey: RSAPublicKey {
        guard let modulus = RSAKeyBIO.integer(OSSL_PKEY_PARAM_RSA_N, of: key),
              let exponent = RSAKeyBIO.integer(OSSL_PKEY_PARAM_RSA_E, of: key),
              let publicKey = RSAPublicKey(modulus: modulus, exponent: exponent) else {
            fatalError("an RSA private key without a usable public half")
        }
        return publicKey
    }

    /// The key as an unencrypted PKCS#8 PEM block (`-----BEGIN PRIVATE KEY-----`), as Google's key files hold it.
    public var pkcs8PEM: String {
        RSAKeyBIO.writing { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
    }

    /// The RS256 signature of `message`: as many bytes as the modulus.
    public func signRS256(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1 else {
            fatalError("EVP_DigestSignInit_ex(SHA256) failed for an RSA key")
        }
        var length = Int(EVP_PKEY_get_size(key))
        var signature = [UInt8](repeating: 0, count: length)
        let ok = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard ok == 1 else { fatalError("RS256 signing failed in OpenSSL") }
        return Array(signature.prefix(length))
    }

    public var description: String { "RSAPrivateKey(<redacted>, \(EVP_PKEY_get_bits(key)) bits)" }
}
