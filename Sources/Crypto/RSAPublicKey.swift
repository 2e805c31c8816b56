import COpenSSL

/// `OSSL_PARAM_BLD` keeps the parameter names' pointers until the parameters are freed, so they must outlive any
/// one call: a Swift string passed as `UnsafePointer<CChar>` is a temporary. These live for the whole process.
nonisolated(unsafe) private let rsaModulusName: UnsafePointer<CChar> = UnsafePointer(strdup(OSSL_PKEY_PARAM_RSA_N)!)
nonisolated(unsafe) private let rsaExponentName: UnsafePointer<CChar> = UnsafePointer(strdup(OSSL_PKEY_PARAM_RSA_E)!)

/// An RSA public key that checks RS256 signatures (RSASSA-PKCS1-v1_5 with SHA-256, RFC 8017 §8.2), as JWTs carry.
///
/// Made from a JWK's `n` and `e` (RFC 7518 §6.3.1) or from PEM. Immutable: one key may verify on any number of
/// threads at once. Only moduli of `modulusBits` are accepted, so a JWKS cannot hand in a toy key.
public final class RSAPublicKey: @unchecked Sendable {
    /// The modulus sizes accepted, in bits (Google signs with 2048-bit keys).
    public static let modulusBits: ClosedRange<Int> = 2048...8192

    /// The `EVP_PKEY`, owned by this object and freed in `deinit`.
    let key: OpaquePointer

    /// Takes ownership of `key`; nil (after freeing it) when it is not RSA or its size is outside `modulusBits`.
    init?(owning key: OpaquePointer) {
        guard EVP_PKEY_is_a(key, "RSA") == 1, Self.modulusBits.contains(Int(EVP_PKEY_get_bits(key))) else {
            EVP_PKEY_free(key)
            return nil
        }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The key with modulus `modulus` and public exponent `exponent`, both unsigned big-endian bytes (leading zero
    /// bytes are ignored); nil when the modulus is outside `modulusBits` or the exponent is not an odd number from 3
    /// to 2^64 − 1.
    public convenience init?(modulus: [UInt8], exponent: [UInt8]) {
        let modulus = Array(modulus.drop { $0 == 0 })
        let exponent = Array(exponent.drop { $0 == 0 })
        guard Self.modulusBits.contains(modulus.count * 8 - (modulus.first.map { $0.leadingZeroBitCount } ?? 0)),
              modulus.last.map({ $0 & 1 == 1 }) == true,
              (1...8).contains(exponent.count), exponent.last.map({ $0 & 1 == 1 }) == true,
              exponent != [1] else { return nil }
        guard let key = Self.fromData(modulus: modulus, exponent: exponent) else { return nil }
        self.init(owning: key)
    }

    /// The key in a PEM `PUBLIC KEY` block (SubjectPublicKeyInfo, as `openssl pkey -pubout` writes); nil for
    /// anything else.
    public convenience init?(pem: String) {
        let key = RSAKeyBIO.reading(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil) }
        guard let key else {
            ERR_clear_error()
            return nil
        }
        self.init(owning: key)
    }

    /// The size of the modulus in bits.
    public var bitCount: Int { Int(EVP_PKEY_get_bits(key)) }

    /// The modulus and public exponent as unsigned big-endian bytes without leading zeros (a JWK's `n` and `e`).
    public var components: (modulus: [UInt8], exponent: [UInt8]) {
        guard let modulus = RSAKeyBIO.integer(OSSL_PKEY_PARAM_RSA_N, of: key),
              let exponent = RSAKeyBIO.integer(OSSL_PKEY_PARAM_RSA_E, of: key) else {
            fatalError("an RSA key without n or e")
        }
        return (modulus, exponent)
    }

    /// The key as a PEM `PUBLIC KEY` block (SubjectPublicKeyInfo), for `openssl dgst -verify` and the like.
    public var pem: String {
        RSAKeyBIO.writing { bio in PEM_write_bio_PUBKEY(bio, key) }
    }

    /// True when `signature` is this key's RS256 signature of `message`.
    ///
    /// The signature must be exactly as long as the modulus; any other failure (tampered message or signature,
    /// another key, another padding) is simply false.
    public func isValidRS256Signature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == (bitCount + 7) / 8 else { return false }
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1 else {
            fatalError("EVP_DigestVerifyInit_ex(SHA256) failed for an RSA key")
        }
        let verified = signature.withUnsafeBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                EVP_DigestVerify(context, signatureBuffer.baseAddress, signatureBuffer.count,
                                 messageBuffer.baseAddress, messageBuffer.count)
            }
        }
        if verified != 1 { ERR_clear_error() }
        return verified == 1
    }

    /// An `EVP_PKEY` from `n` and `e` through `OSSL_PARAM_BLD` and `EVP_PKEY_fromdata`; nil when OpenSSL refuses.
    private static func fromData(modulus: [UInt8], exponent: [UInt8]) -> OpaquePointer? {
        let n = modulus.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let e = exponent.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        defer {
            BN_free(n)
            BN_free(e)
        }
        guard let n, let e, let builder = OSSL_PARAM_BLD_new() else { fatalError("OpenSSL is out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard OSSL_PARAM_BLD_push_BN(builder, rsaModulusName, n) == 1,
              OSSL_PARAM_BLD_push_BN(builder, rsaExponentName, e) == 1,
              let params = OSSL_PARAM_BLD_to_param(builder) else { fatalError("OSSL_PARAM_BLD failed") }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { fatalError("OpenSSL has no RSA") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        // EVP_PKEY_PUBLIC_KEY is a macro Swift does not import: every parameter selection plus the public key.
        let selection = OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
            | OSSL_KEYMGMT_SELECT_PUBLIC_KEY
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, params) == 1 else {
            ERR_clear_error()
            return nil
        }
        return key
    }
}
