import Foundation

/// The token that rides in the Play link (`…&referrer=<token>`) into a fresh install; lives 30 days, one use.
///
/// 8 characters of `CodeAlphabet` (40 bits) from 5 CSPRNG bytes the caller draws. The server stores it only as a
/// keyed hash for lookup and encrypted for re-display; the caller retries with fresh bytes while any code ever
/// minted (live, spent or expired, of either kind) has the same value, so codes are unique over all time.
public struct InstallToken: Hashable, Sendable {
    /// How long an install token can be redeemed after it is minted: 30 days.
    public static let lifetime: TimeInterval = 30 * 24 * 60 * 60
    /// Random bytes that make one token.
    public static let randomByteCount = CodeAlphabet.randomByteCount

    /// The 8 uppercase characters.
    public let text: String

    private init(text: String) { self.text = text }

    /// A new token from 5 random bytes: every bit is used, so each of the 2^40 tokens is equally likely.
    public init(randomBytes: [UInt8]) { self.text = CodeAlphabet.encode(randomBytes: randomBytes) }

    /// The token spelled by `text`, or nil. Exact: no trimming or uppercasing (the app does that, the server not).
    public static func parse(_ text: String) -> InstallToken? {
        CodeAlphabet.isCode(text) ? InstallToken(text: text) : nil
    }

    /// When a token minted at `mintedAt` stops working.
    public static func expiry(mintedAt: Date) -> Date { mintedAt.addingTimeInterval(lifetime) }
}
