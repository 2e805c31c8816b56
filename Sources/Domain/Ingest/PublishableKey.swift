/// An app's publishable key: `pk_3x_` and 32 characters of the URL-safe alphabet `A–Z a–z 0–9 _ -` (24 random bytes
/// in base64url, 192 bits).
///
/// It ships inside the app, so it is public by design: it opens only `/v1/m/*`, only for its app's platform and
/// bundle id, and it is kept in clear (`app_ingest_configs.publishable_key`) so `handoff admin app show` can print it.
public struct PublishableKey: Hashable, Sendable, CustomStringConvertible {
    /// What every key starts with.
    public static let prefix = "pk_3x_"
    /// Random bytes behind a key.
    public static let randomByteCount = 24
    /// Characters in a whole key.
    public static let length = prefix.utf8.count + 32
    /// A whole key: `^pk_3x_[A-Za-z0-9_-]{32}$`.
    public static let pattern = "^pk_3x_[A-Za-z0-9_-]{32}$"

    /// The key text.
    public let text: String

    private init(text: String) { self.text = text }

    /// A new key from `randomByteCount` bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "PublishableKey: needs 24 random bytes")
        self.text = Self.prefix + Base64URLText.encode(randomBytes)
    }

    public var description: String { text }

    /// A key of the right shape, or nil (the caller answers 403 `key`, as for an unknown one).
    public static func parse(_ text: String) -> PublishableKey? {
        guard text.utf8.count == length, text.hasPrefix(prefix),
              StoreToken.characters.containsAll(String(text.dropFirst(prefix.utf8.count)))
        else { return nil }
        return PublishableKey(text: text)
    }
}
