/// One result row; every value is kept in Postgres' text format and decoded on access.
public struct Row: Sendable {
    /// Column names and their positions, shared by all rows of one result.
    final class Layout: Sendable {
        let names: [String]
        /// Name to position, only for wide results: building a dictionary for every result cost more than a linear
        /// scan of a few names (callgrind, bench/append).
        private let positions: [String: Int]?

        init(names: [String]) {
            self.names = names
            guard names.count > 16 else {
                positions = nil
                return
            }
            var positions: [String: Int] = [:]
            for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
            self.positions = positions
        }

        /// The position of the first column named `name`.
        func position(of name: String) -> Int? {
            if let positions { return positions[name] }
            return names.firstIndex(of: name)
        }
    }

    let layout: Layout
    /// The values in column order; nil is SQL NULL.
    public let values: [String?]

    init(layout: Layout, values: [String?]) {
        self.layout = layout
        self.values = values
    }

    /// The column names in result order.
    public var columns: [String] { layout.names }

    /// The text value of `column`; nil when it is NULL or there is no such column
    /// (the first one wins when several share the name).
    public subscript(_ column: String) -> String? {
        guard let index = layout.position(of: column) else { return nil }
        return values[index]
    }

    /// The text value at `index`; nil when it is NULL or out of range.
    public subscript(_ index: Int) -> String? {
        values.indices.contains(index) ? values[index] : nil
    }

    /// Whether `column` is NULL (or missing).
    public func isNull(_ column: String) -> Bool { self[column] == nil }

    /// The text value of `column`; throws when it is NULL or missing.
    public func string(_ column: String) throws -> String {
        guard let index = layout.position(of: column) else { throw Self.decodingError("no column \"\(column)\"") }
        guard let value = values[index] else { throw Self.decodingError("column \"\(column)\" is NULL") }
        return value
    }

    /// `column` as an integer (`smallint`, `integer`, `bigint`, or any text holding one); throws otherwise.
    public func int(_ column: String) throws -> Int {
        guard let value = Int(try string(column)) else {
            throw Self.decodingError("column \"\(column)\" is not an integer")
        }
        return value
    }

    /// `column` as an integer, nil when NULL; throws when it holds something else.
    public func optionalInt(_ column: String) throws -> Int? {
        isNull(column) ? nil : try int(column)
    }

    /// `column` as a boolean (Postgres prints `t`/`f`); throws otherwise.
    public func bool(_ column: String) throws -> Bool {
        switch try string(column) {
        case "t", "true": return true
        case "f", "false": return false
        default: throw Self.decodingError("column \"\(column)\" is not a boolean")
        }
    }

    /// `column` as a floating-point number (`real`, `double precision`, `numeric`); throws otherwise.
    public func double(_ column: String) throws -> Double {
        let text = try string(column)
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default:
            guard let value = Double(text) else { throw Self.decodingError("column \"\(column)\" is not a number") }
            return value
        }
    }

    /// `column` as bytes, decoding `bytea` output in hex (`\x00ff`) or the older escape format;
    /// nil when NULL, missing, or not valid `bytea` output.
    public func bytes(_ column: String) -> [UInt8]? {
        guard let text = self[column] else { return nil }
        return Self.decodeBytea(text)
    }

    /// Decodes Postgres' text output of a `bytea` value (`bytea_output` hex or escape).
    static func decodeBytea(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x") {
            let digits = utf8[2...]
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(digits.count / 2)
            var index = digits.startIndex
            while index < digits.endIndex {
                guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
                bytes.append(high << 4 | low)
                index += 2
            }
            return bytes
        }
        // Escape format: `\\` is a backslash, `\ooo` an octal byte, anything else is itself.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            if index + 1 < utf8.count, utf8[index + 1] == UInt8(ascii: "\\") {
                bytes.append(byte)
                index += 2
                continue
            }
            guard index + 3 < utf8.count, let value = octalValue(utf8[(index + 1)...(index + 3)]) else {
                return nil
            }
            bytes.append(value)
            index += 4
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func octalValue(_ digits: ArraySlice<UInt8>) -> UInt8? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }

    private static func decodingError(_ message: String) -> PostgresError {
        PostgresError(kind: .other, message: message)
    }
}
