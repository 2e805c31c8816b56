/// The escapes of a JSON string (RFC 8259 §7), read the one way both of the project's JSON parsers read them: the
/// event log's (`EventJSON`) and the SDK routes' (`IngestJSON`).
public enum JSONEscape {
    /// Why an escape is not one JSON allows; `description` is the parsers' refusal text.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case unterminated
        case invalid
        case shortUnicode
        case invalidUnicode
        case loneSurrogate
        case invalidCodePoint

        public var description: String {
            switch self {
            case .unterminated: "unterminated string"
            case .invalid: "invalid escape"
            case .shortUnicode: "short \\u escape"
            case .invalidUnicode: "invalid \\u escape"
            case .loneSurrogate: "lone surrogate"
            case .invalidCodePoint: "invalid code point"
            }
        }
    }

    /// Reads the escape that starts after a backslash at `index` (which it moves past the escape), appends the
    /// character's UTF-8 to `out`, and answers the code point (`\u0000` gives 0; refusing it is the caller's rule).
    /// On a failure `index` is where the failing part starts, as the parsers report it.
    @inlinable
    public static func read<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: inout Int, into out: inout [UInt8]
    ) throws(Failure) -> UInt32 where Bytes.Index == Int {
        guard index < bytes.endIndex else { throw .unterminated }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): out.append(0x22); return 0x22
        case UInt8(ascii: "\\"): out.append(0x5C); return 0x5C
        case UInt8(ascii: "/"): out.append(0x2F); return 0x2F
        case UInt8(ascii: "b"): out.append(0x08); return 0x08
        case UInt8(ascii: "f"): out.append(0x0C); return 0x0C
        case UInt8(ascii: "n"): out.append(0x0A); return 0x0A
        case UInt8(ascii: "r"): out.append(0x0D); return 0x0D
        case UInt8(ascii: "t"): out.append(0x09); return 0x09
        case UInt8(ascii: "u"): break
        default: throw .invalid
        }
        let first = try hex4(bytes, at: &index)
        var value = first
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.endIndex, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw .loneSurrogate }
            index += 2
            let second = try hex4(bytes, at: &index)
            guard (0xDC00..<0xE000).contains(second) else { throw .loneSurrogate }
            value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else if (0xDC00..<0xE000).contains(first) {
            throw .loneSurrogate
        }
        guard let scalar = Unicode.Scalar(value) else { throw .invalidCodePoint }
        out.append(contentsOf: UTF8.encode(scalar)!)
        return value
    }

    /// Four hex digits at `index` (after `\u`), which it moves past them.
    @inlinable
    static func hex4<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: inout Int
    ) throws(Failure) -> UInt32 where Bytes.Index == Int {
        guard index + 4 <= bytes.endIndex else { throw .shortUnicode }
        var value: UInt32 = 0
        for offset in index..<index + 4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidUnicode
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }
}
