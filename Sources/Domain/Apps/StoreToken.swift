/// An app's store token: the last segment of its store URLs (`POST /v1/m/store/{apple|google|revenuecat}/{token}`),
/// 32 characters of the URL-safe alphabet `A–Z a–z 0–9 _ -` (24 random bytes in base64url, 192 bits).
///
/// It is looked up by the hex SHA-256 of its text (`app_store_tokens.token_hash`, `storeTokenHash` in events); the
/// text itself is kept only sealed for the app, because the forwarder signs with it (`x-x3-signature`).
public struct StoreToken: Hashable, Sendable, CustomStringConvertible {
    /// The token's characters.
    public static let characters = ASCIISet("A-Za-z0-9_-")
    /// Random bytes behind a token.
    public static let randomByteCount = 24
    /// Characters in a token.
    public static let length = 32
    /// A whole token: `^[A-Za-z0-9_-]{32}$`.
    public static let pattern = characters.pattern(lengths: length...length)

    /// The token text.
    public let text: String

    private init(text: String) { self.text = text }

    /// A new token from `randomByteCount` bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "StoreToken: needs 24 random bytes")
        self.text = Base64URLText.encode(randomBytes)
    }

    /// The token itself; print it only where it is meant to be shown (creation, rotation).
    public var description: String { text }

    /// A token of the right shape, or nil: a store URL whose last segment is not one answers 404 like an unknown one.
    public static func parse(_ text: String) -> StoreToken? {
        guard text.utf8.count == length, characters.containsAll(text) else { return nil }
        return StoreToken(text: text)
    }
}
