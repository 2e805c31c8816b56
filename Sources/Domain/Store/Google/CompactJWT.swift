import Foundation

/// A JSON Web Token in compact serialization (RFC 7519), split and decoded but not verified:
/// `header.claims.signature`, each part unpadded base64url.
///
/// Parsing checks shape only; the signature (`signature` over `signingInput`) and the claims are judged by the caller
/// (`GooglePushVerifier`, `GooglePushTokenRule`). A header with `crit` is refused: no extension is understood here.
public struct CompactJWT: Hashable, Sendable {
    /// The longest token accepted, in bytes (Google's OIDC tokens are about 1 KB).
    public static let maxLength = 16_384

    public let header: JWTHeader
    public let claims: JWTClaims
    /// The bytes the signature covers: the ASCII of `<header>.<claims>` exactly as received.
    public let signingInput: [UInt8]
    /// The decoded signature.
    public let signature: [UInt8]

    public init(header: JWTHeader, claims: JWTClaims, signingInput: [UInt8], signature: [UInt8]) {
        self.header = header
        self.claims = claims
        self.signingInput = signingInput
        self.signature = signature
    }

    /// The token in `text`, or nil when it is not three canonical base64url parts holding a JSON header with a string
    /// `alg` (and no `crit`), JSON claims of the documented types, and a non-empty signature.
    public static func parse(_ text: String) -> CompactJWT? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLength else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerBytes = Base64URLText.decode(Substring(decoding: parts[0], as: UTF8.self)),
              let claimBytes = Base64URLText.decode(Substring(decoding: parts[1], as: UTF8.self)),
              let signature = Base64URLText.decode(Substring(decoding: parts[2], as: UTF8.self)), !signature.isEmpty,
              case .success(let header) = GoogleJSON.decode(JWTHeader.self, from: headerBytes, prefix: "header"),
              case .success(let claims) = GoogleJSON.decode(JWTClaims.self, from: claimBytes, prefix: "claims")
        else { return nil }
        return CompactJWT(header: header, claims: claims, signingInput: Array(bytes[..<(parts[1].endIndex)]),
                          signature: signature)
    }
}
