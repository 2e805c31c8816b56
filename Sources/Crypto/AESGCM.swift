import COpenSSL

/// AES-256-GCM from OpenSSL's default provider, fetched once: fetching is slow, and the `EVP_CIPHER` is immutable
/// and may be shared by all threads.
nonisolated(unsafe) let aes256GCMCipher: OpaquePointer = {
    guard let cipher = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) else { fatalError("OpenSSL has no AES-256-GCM") }
    return cipher
}()

/// Authenticated encryption with AES-256 in Galois/Counter Mode (NIST SP 800-38D), 96-bit nonces, 128-bit tags.
///
/// A sealed box is `nonce (12 bytes) ‖ ciphertext (as long as the plaintext) ‖ tag (16 bytes)`.
public enum AESGCM {
    /// Bytes in a key.
    public static let keyByteCount = 32
    /// Bytes in a nonce (the recommended 96-bit IV of SP 800-38D).
    public static let nonceByteCount = 12
    /// Bytes in an authentication tag.
    public static let tagByteCount = 16
    /// Bytes a sealed box adds to its plaintext.
    public static let overheadByteCount = nonceByteCount + tagByteCount

    /// Encrypts and authenticates `plaintext` (and authenticates `associatedData`) under a fresh random nonce.
    ///
    /// Returns `nonce ‖ ciphertext ‖ tag`. `key` must be 32 bytes (a programming error otherwise). Random nonces
    /// are safe for up to about 2^32 messages per key (SP 800-38D §8.3); per-subject keys stay far below that.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        seal(plaintext, key: key, nonce: SecureRandom.bytes(nonceByteCount), associatedData: associatedData)
    }

    /// Like `seal(_:key:associatedData:)` with a caller-chosen nonce, for test vectors only.
    ///
    /// Never reuse a nonce under one key: that reveals the XOR of the plaintexts and the authentication key.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) -> [UInt8] {
        precondition(key.count == keyByteCount, "AESGCM.seal: the key must be \(keyByteCount) bytes")
        precondition(nonce.count == nonceByteCount, "AESGCM.seal: the nonce must be \(nonceByteCount) bytes")
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        let ok = key.withUnsafeBufferPointer { keyBuffer in
            nonce.withUnsafeBufferPointer { nonceBuffer in
                guard EVP_EncryptInit_ex2(context, aes256GCMCipher, keyBuffer.baseAddress, nonceBuffer.baseAddress,
                                          nil) == 1,
                      authenticate(context, associatedData),
                      cipherUpdate(context, plaintext, into: &ciphertext)
                else { return false }
                var finalLength: Int32 = 0
                // GCM is a stream mode: the final call writes nothing, it only computes the tag.
                var scratch = [UInt8](repeating: 0, count: 16)
                guard EVP_EncryptFinal_ex(context, &scratch, &finalLength) == 1, finalLength == 0 else { return false }
                return tag.withUnsafeMutableBytes { tagBuffer in
                    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), tagBuffer.baseAddress)
                        == 1
                }
            }
        }
        guard ok else { fatalError("AES-256-GCM encryption failed in OpenSSL") }
        return nonce + ciphertext + tag
    }

    /// Checks and decrypts a box made by `seal`; nil when it was altered, is too short, or the key or the
    /// associated data differ from the ones it was sealed with.
    ///
    /// Nothing of the plaintext is returned unless the tag verifies. `key` must be 32 bytes.
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8]) -> [UInt8]? {
        precondition(key.count == keyByteCount, "AESGCM.open: the key must be \(keyByteCount) bytes")
        guard sealed.count >= overheadByteCount else { return nil }
        let nonce = Array(sealed[..<nonceByteCount])
        let ciphertext = Array(sealed[nonceByteCount..<(sealed.count - tagByteCount)])
        var tag = Array(sealed[(sealed.count - tagByteCount)...])
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let ok = key.withUnsafeBufferPointer { keyBuffer in
            nonce.withUnsafeBufferPointer { nonceBuffer in
                guard EVP_DecryptInit_ex2(context, aes256GCMCipher, keyBuffer.baseAddress, nonceBuffer.baseAddress,
                                          nil) == 1,
                      authenticate(context, associatedData),
                      cipherUpdate(context, ciphertext, into: &plaintext),
                      tag.withUnsafeMutableBytes({ tagBuffer in
                          EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount),
                                              tagBuffer.baseAddress) == 1
                      })
                else { return false }
                var finalLength: Int32 = 0
                var scratch = [UInt8](repeating: 0, count: 16)
                // Fails (returns 0) when the tag does not match: the ciphertext, AAD, nonce or key differ.
                return EVP_DecryptFinal_ex(context, &scratch, &finalLength) == 1 && finalLength == 0
            }
        }
        guard ok else {
            // Wipe what was decrypted before the tag check failed; it must never be seen.
            plaintext.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            return nil
        }
        return plaintext
    }

    /// Feeds associated data (authenticated, not encrypted; no output) to an initialized context.
    private static func authenticate(_ context: OpaquePointer, _ data: [UInt8]) -> Bool {
        guard !data.isEmpty else { return true }
        guard data.count <= Int(Int32.max) else { return false }
        var written: Int32 = 0
        return data.withUnsafeBufferPointer { input in
            EVP_CipherUpdate(context, nil, &written, input.baseAddress, Int32(input.count)) == 1
                && Int(written) == input.count
        }
    }

    /// Runs `input` through the cipher into `output` (same length: GCM does not pad).
    private static func cipherUpdate(_ context: OpaquePointer, _ input: [UInt8], into output: inout [UInt8]) -> Bool {
        guard !input.isEmpty else { return true }
        guard input.count <= Int(Int32.max) else { return false }
        var written: Int32 = 0
        let ok = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                EVP_CipherUpdate(context, destination.baseAddress, &written, source.baseAddress, Int32(source.count))
            }
        }
        return ok == 1 && Int(written) == input.count
    }
}
