import Foundation

/// The code a buyer carries from the paywall into the app (`handoff.code`, `returnLink`); lives 72 hours, one use.
///
/// 8 characters of `CodeAlphabet` (40 bits) from 5 CSPRNG bytes the caller draws. The server stores it only as a
/// keyed hash for lookup and encrypted for re-display; the caller retries with fresh bytes while any code ever
/// minted (live, spent or expired, of either kind) has the same value, so codes are unique over all time.
public struct HandoffCode: Hashable, Sendable {
    /// How long a handoff code can be redeemed after it is minted: 72 hours.
    public static let lifetime: TimeInterval = 72 * 60 * 60
    /// Random bytes that make one code.
    public static let randomByteCount = CodeAlphabet.randomByteCount
    /// A whole code (or install token, same shape): 8 of `23456789ABCDEFGHJKLMNPQRSTUVWXYZ`.
    public static let pattern = CodeAlphabet.characters.pattern(lengths: CodeAlphabet.length...CodeAlphabet.length)

    /// The 8 uppercase characters.
    public let text: String

    private init(text: String) { self.text = text }

    /// A new code from 5 random bytes: every bit is used, so each of the 2^40 codes is equally likely.
    public init(randomBytes: [UInt8]) { self.text = CodeAlphabet.encode(randomBytes: randomBytes) }

    /// The code spelled by `text`, or nil. Exact: no trimming or uppercasing (the app does that, the server not).
    public static func parse(_ text: String) -> HandoffCode? {
        CodeAlphabet.isCode(text) ? HandoffCode(text: text) : nil
    }

    /// When a code minted at `mintedAt` stops working.
    public static func expiry(mintedAt: Date) -> Date { mintedAt.addingTimeInterval(lifetime) }
}
