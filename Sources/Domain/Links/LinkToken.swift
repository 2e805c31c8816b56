/// A random token of go links: a link's global token (the `{ref}` of `GET /v1/go/{ref}`) or a click token
/// (`x3c`, carried in the Play install referrer). 16 random bytes as unpadded base64url: 22 characters of
/// `A–Z a–z 0–9 _ -`.
public struct LinkToken: Hashable, Sendable, CustomStringConvertible {
    /// Random bytes per token (128 bits: not guessable).
    public static let randomByteCount = 16
    /// Characters of a token's text.
    public static let length = 22
    /// The text of a token, as a regular expression.
    public static let pattern = "^[A-Za-z0-9_-]{22}$"

    /// The token's text.
    public let text: String

    /// A new token from `randomByteCount` bytes of a CSPRNG (the caller draws them).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "a link token takes 16 random bytes")
        self.text = Base64URLText.encode(randomBytes)
    }

    private init(text: String) { self.text = text }

    public var description: String { text }

    /// The token spelled by `text` exactly (no trimming, no case folding), or nil.
    public static func parse(_ text: String) -> LinkToken? {
        guard text.utf8.count == length, Base64URLText.decode(Substring(text)) != nil else { return nil }
        return LinkToken(text: text)
    }
}
