import COpenSSL
import Foundation

/// An X.509 certificate parsed by OpenSSL from DER or PEM; immutable, safe to share between threads.
///
/// Parsing checks the ASN.1 structure only: whether the certificate is trusted, valid at some instant, or signed by
/// its issuer is decided by `X509TrustStore`.
public final class X509Certificate: @unchecked Sendable, Equatable, Hashable {
    /// The OpenSSL `X509 *`, owned by this object (freed in `deinit`).
    let pointer: OpaquePointer
    /// The DER encoding, exactly as given (or as OpenSSL encodes a certificate it handed out).
    public let der: [UInt8]

    /// Parses one DER-encoded certificate; nil when `der` is not exactly one certificate (trailing bytes refused).
    public init?(der: [UInt8]) {
        guard !der.isEmpty, der.count <= Int(Int32.max) else { return nil }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        pointer = parsed
        self.der = der
    }

    /// Wraps a certificate OpenSSL handed out (e.g. from a verified chain), taking a reference of its own.
    init(retaining certificate: OpaquePointer) {
        X509_up_ref(certificate)
        pointer = certificate
        var der = [UInt8]()
        let length = i2d_X509(certificate, nil)
        if length > 0 {
            der = [UInt8](repeating: 0, count: Int(length))
            der.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                _ = i2d_X509(certificate, &cursor)
            }
        }
        self.der = der
    }

    deinit {
        X509_free(pointer)
    }

    /// Every certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks, other blocks skipped), in order.
    ///
    /// Empty when there is none or a certificate block does not parse.
    public static func certificates(pem: String) -> [X509Certificate] {
        let bytes = Array(pem.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return [] }
        return bytes.withUnsafeBytes { buffer -> [X509Certificate] in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return [] }
            defer { BIO_free(bio) }
            var found: [X509Certificate] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                defer { X509_free(certificate) }
                found.append(X509Certificate(retaining: certificate))
            }
            // The loop ends with "no start line" at the end of the text; a broken block ends it early.
            let lastError = ERR_peek_last_error()
            ERR_clear_error()
            let endOfText = ERR_GET_LIB(lastError) == ERR_LIB_PEM && ERR_GET_REASON(lastError) == PEM_R_NO_START_LINE
            return endOfText ? found : []
        }
    }

    /// The certificates in the contents of a file: PEM (one or more certificates) or a single DER certificate.
    ///
    /// Empty when the bytes are neither.
    public static func certificates(fileContents bytes: [UInt8]) -> [X509Certificate] {
        if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN ") {
            return certificates(pem: text)
        }
        return X509Certificate(der: bytes).map { [$0] } ?? []
    }

    /// Whether the certificate has an extension with `oid` (dotted decimal, e.g. `1.2.840.113635.100.6.11.1`),
    /// critical or not, whatever its value.
    public func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return false
        }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// The first instant the certificate is valid, in whole seconds since 1970 (UTC).
    public var notBefore: Int64? { Self.seconds(X509_get0_notBefore(pointer)) }

    /// The instant the certificate expires, in whole seconds since 1970 (UTC); OpenSSL treats it as expired at and
    /// after this second.
    public var notAfter: Int64? { Self.seconds(X509_get0_notAfter(pointer)) }

    /// The subject's public key when it is an EC key on P-256, for ES256; nil for any other key.
    public var ecdsaPublicKey: ECDSAPublicKey? {
        guard let key = X509_get0_pubkey(pointer) else {
            ERR_clear_error()
            return nil
        }
        return ECDSAPublicKey(retaining: key)
    }

    /// The SHA-256 digest of the DER encoding (the certificate's "SHA-256 fingerprint").
    public var sha256Fingerprint: [UInt8] { SHA256.hash(der) }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.der == rhs.der }

    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Int64(timegm(&parts))
    }
}
