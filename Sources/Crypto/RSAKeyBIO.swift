import COpenSSL

/// PEM text in and out of OpenSSL memory BIOs, and big-endian integers out of keys, for the RSA key types.
enum RSAKeyBIO {
    /// Runs `body` with a read-only memory BIO over the UTF-8 bytes of `text`; nil when the BIO cannot be made.
    static func reading<T>(_ text: String, _ body: (OpaquePointer) -> T?) -> T? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
        return bytes.withUnsafeBytes { buffer -> T? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The text `write` puts into a fresh memory BIO; traps when OpenSSL fails (it only does so out of memory).
    static func writing(_ write: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("BIO_new failed") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { fatalError("writing a PEM key failed in OpenSSL") }
        var output = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = output.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        guard read == output.count else { fatalError("reading a memory BIO failed in OpenSSL") }
        return String(decoding: output, as: UTF8.self)
    }

    /// The big-endian bytes (no leading zeros) of the integer parameter `name` of `key` (`n`, `e`), or nil.
    static func integer(_ name: String, of key: OpaquePointer) -> [UInt8]? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            ERR_clear_error()
            return nil
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        let written = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return Int(written) == bytes.count ? bytes : nil
    }
}
