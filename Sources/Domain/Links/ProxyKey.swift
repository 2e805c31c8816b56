/// A proxy key (`px_…`): an organization's credential for its first-party proxy, which forwards `<prefix>/go/<code>`
/// from the organization's own domains to `GET /v1/go/{code}` with the key in the `X-Handoff-Proxy-Key` header. Only
/// with it does a link's short code resolve. Stored only as its SHA-256; shown once, at creation.
public struct ProxyKey: Hashable, Sendable, CustomStringConvertible {
    /// The text every proxy key starts with.
    public static let prefix = "px_"
    /// Random bytes per key (192 bits).
    public static let randomByteCount = 24
    /// Characters of a key's text: the prefix and 32 of base64url.
    public static let length = prefix.utf8.count + 32
    /// The request header a proxy sends the key in.
    public static let header = "X-Handoff-Proxy-Key"

    /// The key's text.
    public let text: String

    /// A new key from `randomByteCount` bytes of a CSPRNG (the caller draws them).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "a proxy key takes 24 random bytes")
        self.text = Self.prefix + Base64URLText.encode(randomBytes)
    }

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// The key spelled by `text` exactly, or nil.
    public static func parse(_ text: String) -> ProxyKey? {
        guard text.utf8.count == length, text.hasPrefix(prefix),
              Base64URLText.decode(text.dropFirst(prefix.utf8.count)) != nil
        else { return nil }
        return ProxyKey(text: text)
    }

    /// The first characters shown in lists (`px_` and 8 more), never enough to use the key.
    public var visiblePrefix: String { String(text.prefix(Self.prefix.utf8.count + 8)) }
}
