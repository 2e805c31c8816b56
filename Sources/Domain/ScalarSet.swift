/// A set of Unicode scalars as fixed code point ranges of the Basic Multilingual Plane: the free-text parsers refuse
/// scalars in it and `/openapi.json` prints it as a regular-expression class with `\uXXXX` escapes (which ECMA-262,
/// Python, ICU and Rust read alike).
///
/// Fixed ranges rather than Unicode properties: a rule that moved with the host's Unicode version would accept an id
/// on one server and refuse it on the next.
public struct ScalarSet: Hashable, Sendable {
    /// The ranges, in code points, each within U+0000–U+FFFF.
    public let ranges: [ClosedRange<UInt32>]

    public init(_ ranges: [ClosedRange<UInt32>]) {
        precondition(ranges.allSatisfy { $0.upperBound <= 0xFFFF }, "ScalarSet: BMP ranges only")
        self.ranges = ranges
    }

    /// Whether `scalar` is in the set.
    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) }
    }

    /// The union of two sets.
    public static func + (lhs: ScalarSet, rhs: ScalarSet) -> ScalarSet { ScalarSet(lhs.ranges + rhs.ranges) }

    /// The class body: `\u0000-\u001F\u007F-\u009F…`.
    public var classBody: String {
        ranges.map { range in
            range.lowerBound == range.upperBound ? Self.escape(range.lowerBound)
                : Self.escape(range.lowerBound) + "-" + Self.escape(range.upperBound)
        }.joined()
    }

    private static func escape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension ScalarSet {
    /// Control characters (general category Cc): U+0000–U+001F and U+007F–U+009F.
    public static let controls = ScalarSet([0x0000...0x001F, 0x007F...0x009F])

    /// Format characters (general category Cf) of the Basic Multilingual Plane, Unicode 15: the soft hyphen, the
    /// zero-width and bidirectional controls, the byte order mark and the like, which make two ids look alike.
    public static let formats = ScalarSet([
        0x00AD...0x00AD, 0x0600...0x0605, 0x061C...0x061C, 0x06DD...0x06DD, 0x070F...0x070F, 0x0890...0x0891,
        0x08E2...0x08E2, 0x180E...0x180E, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F,
        0xFEFF...0xFEFF, 0xFFF9...0xFFFB,
    ])

    /// White space (the `White_Space` property) other than U+0020 SPACE: tab, line and paragraph breaks, no-break
    /// and typographic spaces.
    public static let whitespaceExceptSpace = ScalarSet([
        0x0009...0x000D, 0x0085...0x0085, 0x00A0...0x00A0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
    ])

    /// U+0020 SPACE alone.
    public static let space = ScalarSet([0x0020...0x0020])
}
