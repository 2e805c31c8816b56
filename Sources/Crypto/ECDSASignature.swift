import COpenSSL

/// ECDSA signatures on P-256 in the two encodings in use: JWS's raw `R ‖ S` (RFC 7518 §3.4, 32 + 32 bytes, big
/// endian) and the DER `ECDSA-Sig-Value` SEQUENCE that OpenSSL signs and verifies.
public enum ECDSASignature {
    /// Bytes of a raw P-256 signature: R and S, 32 bytes each.
    public static let rawByteCount = 64

    /// The DER `SEQUENCE { r INTEGER, s INTEGER }` of a raw `R ‖ S` signature; nil unless `raw` is 64 bytes.
    ///
    /// R and S are not range-checked here: a zero or oversized value simply fails verification.
    public static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawByteCount, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let half = Int32(rawByteCount / 2)
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (BN_bin2bn(buffer.baseAddress, half, nil), BN_bin2bn(buffer.baseAddress! + Int(half), half, nil))
        }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            fatalError("BN_bin2bn failed")
        }
        // ECDSA_SIG_set0 takes ownership of both numbers.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else { fatalError("ECDSA_SIG_set0 failed") }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { fatalError("i2d_ECDSA_SIG failed") }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_ECDSA_SIG(signature, &cursor)
        }
        return der
    }

    /// The raw `R ‖ S` (64 bytes) of a DER signature on P-256; nil when `der` is not exactly one signature whose
    /// R and S fit in 32 bytes.
    public static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard !der.isEmpty, der.count <= Int(Int32.max) else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                ECDSA_SIG_free(signature)
                return nil
            }
            return signature
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: rawByteCount)
        let half = Int32(rawByteCount / 2)
        let ok = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, half) == half
                && BN_bn2binpad(s, buffer.baseAddress! + Int(half), half) == half
        }
        guard ok else {
            ERR_clear_error()
            return nil
        }
        return raw
    }
}
