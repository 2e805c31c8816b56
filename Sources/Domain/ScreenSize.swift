import Foundation

/// A screen in CSS pixels as `WxH` (`393x852`), orientation-free: `852x393` is the same screen.
///
/// Each side is 1 to 5 decimal digits without a leading zero, at most 20000. `text` is the normalized form
/// (shorter side first), which is what is stored and compared.
public struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
    /// The shorter side.
    public let short: Int
    /// The longer side.
    public let long: Int

    /// `short` `x` `long`.
    public var text: String { "\(short)x\(long)" }
    public var description: String { text }

    /// The largest side accepted.
    public static let maxSide = 20000
    /// A whole screen size: two sides of 1 to `maxSide` without a leading zero, joined by `x`.
    public static let pattern: String = {
        let side = "(?:[1-9][0-9]{0,3}|1[0-9]{4}|20000)"
        precondition(maxSide == 20000, "ScreenSize.pattern spells out maxSide")
        return "^\(side)x\(side)$"
    }()

    /// Parses `WxH`; refuses with `VALIDATION_FAILED` naming `field`.
    public static func parse(_ text: String, field: String = "screen") -> Result<ScreenSize, FieldRefusal> {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = side(parts[0]), let second = side(parts[1]) else {
            return .failure(FieldRefusal(field: field, code: .validationFailed,
                                         rule: "be the screen size in CSS pixels as WxH, e.g. 393x852"))
        }
        return .success(ScreenSize(short: min(first, second), long: max(first, second)))
    }

    private init(short: Int, long: Int) {
        self.short = short
        self.long = long
    }

    private static func side(_ text: Substring) -> Int? {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              text.first != "0", let value = Int(text), value <= maxSide else { return nil }
        return value
    }
}
