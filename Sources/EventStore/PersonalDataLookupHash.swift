import Crypto
import Domain
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keyed hashes of personal data for lookups ("which buyer has this e-mail?") without storing the plaintext.
///
/// `HMAC-SHA256(pepper, kind ‖ 0x00 ‖ normalized value)` as 64 lowercase hex characters. The pepper
/// (`HANDOFF_LOOKUP_PEPPER`, ≥ 32 bytes) stays out of the database, so a stolen table cannot be searched by guessing
/// addresses. Destroying a subject's key does not touch its lookup hashes: whoever holds the pepper can still
/// confirm a guessed address, so delete a forgotten buyer's lookup rows too.
public enum LookupHash {
    /// The shortest pepper accepted.
    public static let minimumPepperBytes = 32

    /// The lookup hash of an e-mail address: trimmed of whitespace, Unicode NFC, lowercased.
    ///
    /// `" Buyer@Example.COM\n"` and `"buyer@example.com"` give the same hash. (The local part is treated as case
    /// insensitive, as every large mail provider does, though RFC 5321 allows otherwise.)
    public static func email(_ address: String, pepper: [UInt8]) -> String {
        of(normalizedEmail(address), kind: "email", pepper: pepper)
    }

    /// The lookup hash of an IPv4 or IPv6 address, over its 4 or 16 bytes: every spelling of one address
    /// (`::1`, `0:0::1`; `::ffff:1.2.3.4` and `1.2.3.4`) gives the same hash. Nil when `address` is not an IP.
    public static func ipAddress(_ address: String, pepper: [UInt8]) -> String? {
        guard let bytes = ipBytes(trimmed(address)) else { return nil }
        return of(bytes, kind: "ip", pepper: pepper)
    }

    /// `text` without leading and trailing white space and newlines. Text that starts and ends with a printable
    /// ASCII byte (every address the server reads off a socket) is returned as it is, without a trip through
    /// `NSString` (2 % of a resolve's CPU); every other white space character starts with a byte ≥ 0x80.
    static func trimmed(_ text: String) -> String {
        func printableASCII(_ byte: UInt8?) -> Bool { byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if printableASCII(text.utf8.first) && printableASCII(text.utf8.last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lookup hash of already normalized bytes under a kind label (`email`, `ip`, …): the labels keep equal
    /// bytes of different kinds apart.
    public static func of(_ normalized: [UInt8], kind: String, pepper: [UInt8]) -> String {
        precondition(pepper.count >= minimumPepperBytes, "LookupHash: the pepper must be at least 32 bytes")
        return Hex.encode(HMAC.sha256(key: pepper, message: Array(kind.utf8) + [0] + normalized))
    }

    /// Trimmed, NFC, lowercased UTF-8.
    static func normalizedEmail(_ address: String) -> [UInt8] {
        Array(address.trimmingCharacters(in: .whitespacesAndNewlines)
            .precomposedStringWithCanonicalMapping.lowercased().utf8)
    }

    /// 4 bytes for IPv4 (also when written as an IPv4-mapped IPv6 address), 16 for IPv6; nil otherwise.
    static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return Array(bytes[12...])
        }
        return bytes
    }
}
