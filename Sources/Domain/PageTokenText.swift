/// What a post-payment page token (`/done/<pageToken>`, the payment answer's `handoff.pageToken`) looks like from
/// outside: base64url without padding of a 16-byte synthetic IV and the 8 bytes of the sealed handoff code — 32
/// characters. The sealing itself is `PageToken` in the write model; this is its shape, checked before any opening.
public enum PageTokenText {
    /// The base64url alphabet.
    public static let characters = ASCIISet("A-Za-z0-9_-")
    /// Characters in a token: 24 bytes in base64url.
    public static let length = (16 + CodeAlphabet.length) * 4 / 3
    /// A whole token: `^[A-Za-z0-9_-]{32}$`.
    public static let pattern = characters.pattern(lengths: length...length)

    /// Whether `text` has a page token's shape (it may still open to nothing).
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && characters.containsAll(text)
    }
}
