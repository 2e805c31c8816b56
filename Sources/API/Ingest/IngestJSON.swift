import Domain

/// JSON (RFC 8259) as the SDK routes (`/v1/m/*`) read it: parsed byte by byte into a small tree that keeps each
/// number's text and each object's bytes, so a member the server stores as sent (an event's `p`, a `link` object)
/// is taken from the body without being written again.
///
/// `/v1/m/batch` is the busiest route: Foundation's `JSONSerialization` spent three quarters of its CPU bridging
/// every value to Objective-C objects and casting them back (docs/performance.md "bench/ingest"). The event log
/// keeps its own stricter parser (`EventJSON`: integers only, canonical output); this one takes any JSON number.
/// Both read string escapes through `JSONEscape`.
///
/// Refused: anything that is not one JSON value, invalid UTF-8, control characters in strings, lone surrogates and
/// nesting deeper than `maximumDepth`. `\u0000` is read (each route refuses it where it stores text: Postgres cannot
/// hold it). A repeated key keeps its last value, as Postgres' `jsonb` does.
enum IngestJSON {
    /// Deepest nesting of arrays and objects taken.
    static let maximumDepth = 64

    /// One JSON value.
    indirect enum Value {
        case object(Object)
        case array([Value])
        case string(String)
        /// The number's text as written (`12`, `-0.5`, `1e3`).
        case number(String)
        case bool(Bool)
        case null

        /// Whether this value is `null`.
        var isNull: Bool {
            if case .null = self { return true }
            return false
        }

        /// The object this value is, if it is one.
        var object: Object? {
            if case .object(let object) = self { return object }
            return nil
        }
    }

    /// An object: its members in the order written, and its text in the body.
    struct Object {
        var members: [(key: String, value: Value)]
        /// The object's bytes as sent (whitespace included); valid JSON, since the parser read them.
        var text: ArraySlice<UInt8>

        /// The last member named `key`; nil when there is none.
        subscript(_ key: String) -> Value? {
            members.last { $0.key == key }?.value
        }

        /// Whether `text` holds the escape `\u0000` (Postgres' jsonb cannot store it); an escaped backslash before
        /// `u0000` counts too, as it did when this was a text search.
        var holdsEscapedNul: Bool {
            let pattern = Array("\\u0000".utf8)
            guard text.count >= pattern.count else { return false }
            var index = text.startIndex
            while index <= text.endIndex - pattern.count {
                if text[index] == pattern[0], text[index..<index + pattern.count].elementsEqual(pattern) { return true }
                index += 1
            }
            return false
        }

        /// Removes every member named `key` (`text` then no longer describes the object).
        mutating func remove(_ key: String) {
            members.removeAll { $0.key == key }
        }

        /// Sets the member `key` to `value`, in place of every member of that name.
        mutating func replace(_ key: String, with value: Value) {
            remove(key)
            members.append((key, value))
        }

        /// The object as compact JSON with its members sorted by key (numbers keep their text).
        var sortedCompactBytes: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(text.count)
            IngestJSON.write(.object(self), sorted: true, into: &out)
            return out
        }
    }

    /// Why a text is not JSON this parser takes (the routes answer 400 `invalid` without it).
    struct ParseError: Error {
        let reason: String
        let offset: Int
    }

    /// Parses `bytes` as exactly one JSON value (whitespace around it allowed).
    static func parse(_ bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, source: bytes)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.error("text after the value") }
            return value
        }
    }

    /// Parses `bytes` as a JSON object; nil when it is not valid JSON or not an object.
    static func object(_ bytes: [UInt8]) -> Object? {
        (try? parse(bytes))?.object
    }

    // MARK: - Writer

    static func write(_ value: Value, sorted: Bool, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, sorted: sorted, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            var members: [(key: String, value: Value)] = []
            for member in object.members {
                if let index = members.firstIndex(where: { $0.key == member.key }) {
                    members[index] = member
                } else {
                    members.append(member)
                }
            }
            if sorted { members.sort { $0.key < $1.key } }
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, sorted: sorted, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: - Parser

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let source: [UInt8]
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, source: [UInt8]) {
            self.bytes = bytes
            self.source = source
        }

        func error(_ reason: String) -> ParseError { ParseError(reason: reason, offset: index) }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws -> Value {
            guard index < bytes.count else { throw error("unexpected end of text") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
            case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("unexpected end of text") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw error("unexpected character")
            }
            index += count
        }

        mutating func object(depth: Int) throws -> Object {
            guard depth <= IngestJSON.maximumDepth else { throw error("nested too deep") }
            let start = index
            index += 1
            var members: [(key: String, value: Value)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return Object(members: members, text: source[start..<index])
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                index += 1
                return Object(members: members, text: source[start..<index])
            }
        }

        mutating func array(depth: Int) throws -> [Value] {
            guard depth <= IngestJSON.maximumDepth else { throw error("nested too deep") }
            index += 1
            var elements: [Value] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                index += 1
                return elements
            }
        }

        /// A number as RFC 8259 writes it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; answers its text.
        mutating func number() throws -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw error("expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard try digits() > 0 else { throw error("expected a digit") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard try digits() > 0 else { throw error("expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard try digits() > 0 else { throw error("expected an exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        mutating func digits() throws -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        mutating func string() throws -> String {
            index += 1
            let start = index
            // The common case: no escape; the bytes are the text once they are valid UTF-8 (ASCII always is).
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    if ascii { return String(decoding: slice, as: UTF8.self) }
                    guard let text = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8") }
                    return text
                }
                if byte >= 0x80 { ascii = false }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw error("control character in a string") }
                index += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
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
                    do {
                        _ = try JSONEscape.read(bytes, at: &index, into: &out)
                    } catch {
                        throw self.error(error.description)
                    }
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
