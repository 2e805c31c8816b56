/// A JSON value as the event log stores it: null, booleans, integers, strings, arrays and objects.
///
/// Numbers are integers only (64-bit signed): fractions and exponents are refused, so that the canonical form
/// (`canonicalBytes`) is the same in every language and survives Postgres' `jsonb` unchanged. Amounts are
/// integer minor units; times and decimals travel as strings. Object keys are unique.
public enum EventJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case string(String)
    case array([EventJSON])
    case object([String: EventJSON])

    /// Why a text is not acceptable event JSON.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. `numbers must be integers`.
        public let reason: String
        /// The byte offset where parsing stopped.
        public let offset: Int
        public var description: String { "invalid event JSON at byte \(offset): \(reason)" }
    }

    /// Parses UTF-8 JSON text (RFC 8259) restricted as described on the type; throws `ParseError`.
    public static func parse(_ bytes: [UInt8]) throws -> EventJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a JSON string; throws `ParseError`.
    public static func parse(_ text: String) throws -> EventJSON { try parse(Array(text.utf8)) }

    /// The canonical UTF-8 serialization (docs/event-store.md): no whitespace, object keys sorted by Unicode code
    /// point, integers in plain decimal, strings with only `"`, `\`, and U+0000–U+001F escaped
    /// (`\b \f \n \r \t`, otherwise `\u00xx` in lowercase hex), everything else as raw UTF-8.
    ///
    /// Identical to Python's `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
    public var canonicalBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        Self.write(self, into: &out)
        return out
    }

    /// `canonicalBytes` as a string.
    public var canonicalText: String { String(decoding: canonicalBytes, as: UTF8.self) }

    /// The member `key` of an object; nil for other values or a missing key.
    public subscript(_ key: String) -> EventJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The string this value holds, if it is one.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The integer this value holds, if it is one.
    public var integerValue: Int64? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    // MARK: - Canonical writer

    private static func write(_ value: EventJSON, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Sorting the members, not the keys, spares a dictionary lookup per member.
            for (index, member) in members.sorted(by: { codePointOrder($0.key, $1.key) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Unicode code point order (which equals UTF-8 byte order), not Swift's canonical-equivalence order.
    static func codePointOrder(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var start = 0
            let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == quote || byte == backslash {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                out.append(backslash)
                switch byte {
                case quote, backslash: out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
                start = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Parser

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maximumDepth = 64

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> ParseError { ParseError(reason: reason, offset: index) }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws -> EventJSON {
            guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
            guard index < bytes.count else { throw error("unexpected end of text") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw error("unexpected character")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws -> EventJSON {
            index += 1
            var members: [String: EventJSON] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let keyStart = index
                let key = try string()
                guard members[key] == nil else {
                    index = keyStart
                    throw error("duplicate key \"\(key)\"")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                members[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws -> EventJSON {
            index += 1
            var elements: [EventJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                index += 1
                return .array(elements)
            }
        }

        mutating func integer() throws -> Int64 {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digitCount = index - digitsStart
            guard digitCount > 0 else { throw error("expected a digit") }
            guard !(digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0")) else {
                throw error("numbers must not have leading zeros")
            }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                index = start
                throw error("numbers must be integers (send decimals and times as strings)")
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let number = Int64(text) else {
                index = start
                throw error("integer out of the 64-bit range")
            }
            if number == 0 && bytes[start] == UInt8(ascii: "-") {
                index = start
                throw error("-0 is not allowed")
            }
            return number
        }

        mutating func string() throws -> String {
            index += 1
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    let scalar: UInt32
                    do {
                        scalar = try JSONEscape.read(bytes, at: &index, into: &out)
                    } catch {
                        throw self.error(error.description)
                    }
                    guard scalar != 0 else { throw self.error("\\u0000 is not allowed (Postgres text cannot hold it)") }
                case 0x00..<0x20:
                    throw error("control character in a string")
                default:
                    out.append(byte)
                    index += 1
                }
            }
        }
    }
}
