/// A set of ASCII characters written like the body of a regular-expression class (`A-Za-z0-9._:-`): the parsers
/// check bytes against it and `/openapi.json` prints the same text inside `[…]`, so the two cannot drift.
///
/// The text is ranges (`A-Z`) and single characters; a `-` first or last is itself. It must not hold `\`, `]`, `^`
/// or `[` (so it reads the same in ECMA-262, Python, ICU and Rust regular expressions).
public struct ASCIISet: Hashable, Sendable {
    /// The class body as written, e.g. `A-Za-z0-9._:-`.
    public let classBody: String
    private let low: UInt64
    private let high: UInt64

    /// Builds the set from a class body; traps on anything but printable ASCII (a programming error).
    public init(_ classBody: String) {
        let bytes = Array(classBody.utf8)
        precondition(bytes.allSatisfy { (0x21...0x7E).contains($0) && !"\\]^[".utf8.contains($0) },
                     "ASCIISet: only printable ASCII without \\ ] ^ [")
        var low: UInt64 = 0
        var high: UInt64 = 0
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            var last = first
            if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                last = bytes[index + 2]
                index += 3
            } else {
                index += 1
            }
            precondition(first <= last, "ASCIISet: a range must go upwards")
            for byte in first...last {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }
        self.classBody = classBody
        self.low = low
        self.high = high
    }

    /// Whether `byte` is in the set.
    public func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// Whether every UTF-8 byte of `text` is in the set (so `text` is ASCII).
    public func containsAll(_ text: some StringProtocol) -> Bool { text.utf8.allSatisfy(contains) }

    /// `^[<body>]{min,max}$`: a whole text of `lengths` characters of the set.
    public func pattern(lengths: ClosedRange<Int>) -> String {
        let count = lengths.lowerBound == lengths.upperBound
            ? "{\(lengths.lowerBound)}" : "{\(lengths.lowerBound),\(lengths.upperBound)}"
        return "^[\(classBody)]\(count)$"
    }
}
