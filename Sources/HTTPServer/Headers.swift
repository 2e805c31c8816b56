/// HTTP header fields in the order they were received or added; names are looked up case-insensitively.
///
/// A name may occur more than once (`Set-Cookie`); the subscript answers the first occurrence,
/// `values(_:)` all of them.
public struct Headers: Sendable {
    /// The fields as (name, value) pairs, in order, names as written.
    public var pairs: [(String, String)]

    /// Makes headers from (name, value) pairs, keeping their order.
    public init(_ pairs: [(String, String)] = []) {
        self.pairs = pairs
    }

    /// The value of the first field called `name` (any letter case), or nil.
    public subscript(_ name: String) -> String? {
        pairs.first { Self.sameName($0.0, name) }?.1
    }

    /// The values of every field called `name` (any letter case), in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { Self.sameName($0.0, name) }.map(\.1)
    }

    /// Appends a field, keeping any earlier fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// Replaces every field called `name` (any letter case) by one field with `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        pairs.append((name, value))
    }

    /// Removes every field called `name` (any letter case).
    public mutating func remove(_ name: String) {
        pairs.removeAll { Self.sameName($0.0, name) }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Whether two field names are the same, ignoring ASCII case (field names are ASCII tokens, RFC 9110 §5.1); no
    /// lowercased copies (looking a header up lowercased every name of the request, each time).
    static func sameName(_ left: String, _ right: String) -> Bool {
        let left = left.utf8, right = right.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

extension Headers: Equatable {
    /// Equal when the same fields appear in the same order (names compared case-insensitively).
    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        lhs.pairs.count == rhs.pairs.count
            && zip(lhs.pairs, rhs.pairs).allSatisfy { sameName($0.0, $1.0) && $0.1 == $1.1 }
    }
}

extension Headers: ExpressibleByDictionaryLiteral {
    /// `["Content-Type": "application/json"]`, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }
}
