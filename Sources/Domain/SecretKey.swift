/// A project's secret key, used by the tenant's servers on `/s2s/*`: `sk_live_` + 52 + 7 characters.
///
/// Format (docs/identity.md): `sk_live_` ‖ base32(32 random bytes) (52 characters) ‖ base32(CRC-32 of everything
/// before it, big-endian) (7 characters), lowercase RFC 4648 base32 without padding; 67 characters in all.
/// The checksum lets `parse` refuse a mistyped or truncated key before any lookup. The server keeps only a hash
/// of `lookupMaterial` and the `visiblePrefix`; `description` never shows the whole key, so logging one is safe.
public struct SecretKey: Hashable, Sendable, CustomStringConvertible {
    /// The fixed start of every key.
    public static let prefix = "sk_live_"
    /// Random bytes in a key (256 bits).
    public static let randomByteCount = 32
    /// Characters in a whole key.
    public static let length = prefix.utf8.count + bodyLength + checksumLength
    /// Characters shown after creation and used to revoke: `sk_live_` and the first 8 random characters (40 bits).
    public static let visiblePrefixLength = 16

    static let bodyLength = 52
    static let checksumLength = 7

    /// The whole key, as shown once at creation and sent by the tenant. Never log it.
    public let text: String

    private init(text: String) { self.text = text }

    /// Makes a key from 32 bytes of a CSPRNG (the caller draws them).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "SecretKey: needs \(Self.randomByteCount) bytes")
        let unchecked = Self.prefix + Base32.encode(randomBytes)
        self.text = unchecked + Self.checksumText(of: unchecked)
    }

    /// The first 16 characters, safe to show and store in clear; `key revoke --prefix` names a key by it.
    public var visiblePrefix: String { String(text.prefix(Self.visiblePrefixLength)) }

    /// The bytes whose SHA-256 the server stores and looks the key up by: the key's UTF-8 text, so an operator
    /// can compute the same hash with `printf %s "$KEY" | sha256sum`.
    public var lookupMaterial: [UInt8] { Array(text.utf8) }

    /// The visible prefix and an ellipsis: never the whole key.
    public var description: String { visiblePrefix + "…" }

    /// Parses a key sent by a tenant; every refusal means 401 at the edge, without a database lookup.
    ///
    /// Exact: no trimming, no case folding (`SK_LIVE_…` and uppercase bodies are refused).
    public static func parse(_ text: String) -> Result<SecretKey, SecretKeyRefusal> {
        let bytes = Array(text.utf8)
        let prefixBytes = Array(prefix.utf8)
        guard bytes.starts(with: prefixBytes) else { return .failure(.wrongPrefix) }
        guard bytes.count == length else { return .failure(.wrongLength) }
        let body = bytes[prefixBytes.count..<(prefixBytes.count + bodyLength)]
        let checksum = bytes[(prefixBytes.count + bodyLength)...]
        guard Base32.decode(body) != nil, let stated = Base32.decode(checksum) else {
            return .failure(.badCharacter)
        }
        let unchecked = bytes[..<(prefixBytes.count + bodyLength)]
        guard stated == bigEndian(CRC32.checksum(unchecked)) else { return .failure(.checksumMismatch) }
        return .success(SecretKey(text: text))
    }

    /// Parses a visible prefix given to `key revoke --prefix`: exactly 16 characters, `sk_live_` and 8 of base32.
    public static func parseVisiblePrefix(
        _ text: String, field: String = "prefix"
    ) -> Result<String, FieldRefusal> {
        let bytes = Array(text.utf8)
        guard bytes.count == visiblePrefixLength, bytes.starts(with: Array(prefix.utf8)),
              bytes[prefix.utf8.count...].allSatisfy(Base32.alphabet.contains)
        else {
            return .failure(FieldRefusal(field: field, code: .keyPrefixFormat,
                                         rule: "be the first \(visiblePrefixLength) characters of a key (sk_live_…)"))
        }
        return .success(text)
    }

    private static func checksumText(of unchecked: String) -> String {
        Base32.encode(bigEndian(CRC32.checksum(unchecked.utf8)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// Why a text is not a secret key. All of them answer 401 `UNAUTHORIZED`; the reason is for logs and tests.
public enum SecretKeyRefusal: Error, Hashable, Sendable {
    /// It does not start with `sk_live_`.
    case wrongPrefix
    /// It has the prefix but not 67 characters.
    case wrongLength
    /// A character outside lowercase base32, or non-zero padding bits.
    case badCharacter
    /// Well-formed, but the checksum does not match: a typo.
    case checksumMismatch
}
