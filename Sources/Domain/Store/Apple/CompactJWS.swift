import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1) as the App Store signs it: `header.payload.signature`, three
/// unpadded base64url segments, a JSON header with `alg` and an `x5c` certificate chain (RFC 7515 §4.1.6).
///
/// Parsing checks the form only; whether the signature and the chain are good is the verifier's job.
public struct CompactJWS: Sendable, Equatable {
    /// The longest JWS text accepted, in bytes: App Store notifications are a few kilobytes.
    public static let maximumLength = 65_536
    /// The longest decoded header accepted, in bytes (three certificates of about 1 KiB in base64, and `alg`).
    public static let maximumHeaderLength = 16_384
    /// The most `x5c` entries accepted.
    public static let maximumCertificateCount = 8
    /// The longest `x5c` entry accepted, in base64 characters.
    public static let maximumCertificateLength = 8_192
    /// The only algorithm accepted: ECDSA on P-256 with SHA-256, signature raw `R ‖ S` (RFC 7518 §3.4).
    public static let es256 = "ES256"
    /// Bytes of an ES256 signature.
    public static let signatureByteCount = 64

    /// `alg`, always `ES256` in a parsed JWS.
    public let algorithm: String
    /// `x5c` as sent: standard base64 (not base64url) of each certificate's DER, leaf first.
    public let certificateChain: [String]
    /// The decoded payload bytes (JSON for the App Store, checked by the payload's own decoder).
    public let payload: [UInt8]
    /// The decoded signature as sent: an ES256 signature is 64 bytes, raw `R ‖ S`; another length (a DER signature,
    /// a truncated one) never verifies, and the verifier says so (401, not a malformed JWS).
    public let signature: [UInt8]
    /// The bytes the signature covers: the first two segments as sent, joined by `.` (ASCII).
    public let signingInput: [UInt8]

    /// The DER of `x5c[index]`, or nil when there is no such entry or it is not standard base64.
    public func certificateDER(at index: Int) -> [UInt8]? {
        guard certificateChain.indices.contains(index),
              let data = Data(base64Encoded: certificateChain[index]), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// Parses compact JWS text: exactly three base64url segments (no padding), a JSON object header whose `alg` is
    /// `ES256` and whose `x5c` is an array of strings, and a
    /// signature segment that is not empty.
    public static func parse(_ text: String) -> Result<CompactJWS, CompactJWSFailure> {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return .failure(.malformed("the JWS is empty")) }
        guard bytes.count <= maximumLength else {
            return .failure(.malformed("the JWS is longer than \(maximumLength) bytes"))
        }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            return .failure(.malformed("a JWS has three segments separated by '.', this has \(segments.count)"))
        }
        guard let headerBytes = decodeSegment(segments[0]), !headerBytes.isEmpty else {
            return .failure(.malformed("the JWS header is not base64url"))
        }
        guard headerBytes.count <= maximumHeaderLength else {
            return .failure(.malformed("the JWS header is longer than \(maximumHeaderLength) bytes"))
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            return .failure(.malformed("the JWS header is not a JSON object with a string 'alg' and an array of "
                + "strings 'x5c'"))
        }
        guard let algorithm = header.alg else { return .failure(.malformed("the JWS header has no 'alg'")) }
        guard algorithm == es256 else { return .failure(.unsupportedAlgorithm(String(algorithm.prefix(16)))) }
        guard let chain = header.x5c, !chain.isEmpty else { return .failure(.missingCertificateChain) }
        guard chain.count <= maximumCertificateCount,
              chain.allSatisfy({ $0.utf8.count <= maximumCertificateLength }) else {
            return .failure(.malformed("the JWS header's 'x5c' is too long"))
        }
        guard let payload = decodeSegment(segments[1]), !payload.isEmpty else {
            return .failure(.malformed("the JWS payload is not base64url"))
        }
        guard let signature = decodeSegment(segments[2]) else {
            return .failure(.malformed("the JWS signature is not base64url"))
        }
        guard !signature.isEmpty else { return .failure(.malformed("the JWS has no signature")) }
        let signingInput = Array(bytes[..<segments[1].endIndex])
        return .success(CompactJWS(algorithm: algorithm, certificateChain: chain, payload: payload,
                                   signature: signature, signingInput: signingInput))
    }

    private static func decodeSegment(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
        decodeBase64URL(segment)
    }

    /// The header fields the App Store's JWS uses; others (`typ`, `kid`) are ignored.
    private struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }
}

/// Why text is not an acceptable compact JWS.
public enum CompactJWSFailure: Error, Hashable, Sendable {
    /// Not three base64url segments, a header that is not the expected JSON, a signature of the wrong size, or
    /// over a size limit; the text says which.
    case malformed(String)
    /// A well-formed header whose `alg` is not `ES256` (e.g. `none` or `HS256`); the value, cut to 16 characters.
    case unsupportedAlgorithm(String)
    /// The header has no `x5c` (or an empty one): nothing to verify the signature with.
    case missingCertificateChain
}
