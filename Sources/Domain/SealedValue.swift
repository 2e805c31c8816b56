
/// Personal data sealed with a subject's key, as it is stored in event JSON: `"pd1.<base64url>"`.
///
/// The base64url part (RFC 4648 §5, no padding) is `nonce (12) ‖ AES-256-GCM ciphertext ‖ tag (16)`. The text is
/// what the event hash covers, so the hash chain verifies with or without the key. Encodes and decodes as a
/// single JSON string; decoding refuses anything that is not this format.
public struct SealedValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The version prefix, including its dot.
    public static let prefix = "pd1."

    /// The whole string, prefix included.
    public let text: String

    /// The sealed bytes: nonce ‖ ciphertext ‖ tag (opened by the event store's personal-data keys).
    public let box: [UInt8]

    /// Bytes of a nonce (12) and a tag (16): the shortest box there is.
    public static let overheadByteCount = 28

    /// Parses `pd1.<base64url>`; nil for another prefix, bad base64url, or fewer bytes than nonce and tag.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix),
              let box = Base64URLText.decode(text.dropFirst(Self.prefix.count)),
              box.count >= Self.overheadByteCount,
              !text.contains("=")
        else { return nil }
        self.text = text
        self.box = box
    }

    /// Wraps sealed bytes (nonce ‖ ciphertext ‖ tag) as `pd1.<base64url>`.
    public init(box: [UInt8]) {
        self.box = box
        self.text = Self.prefix + Base64URLText.encode(box)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = SealedValue(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a pd1 sealed value")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public static func == (lhs: SealedValue, rhs: SealedValue) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The sealed text (ciphertext only; safe to log, though nothing needs to).
    public var description: String { text }
}
