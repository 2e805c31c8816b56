import Foundation

/// A postback's top-level JSON object, member by member, each member kept as the JSON type it was sent with (a
/// boolean is never a number), so the signed string is rebuilt from the values exactly as Apple sent them.
struct PostbackJSON {
    /// One member's value.
    enum Value: Decodable, Equatable {
        case bool(Bool)
        case integer(Int64)
        case string(String)
        /// null, a fraction, an array or an object: never a valid postback member.
        case other

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else {
                self = .other
            }
        }
    }

    let members: [String: Value]

    /// The object in `bytes`, or 400 `invalid` naming the body.
    static func parse(_ bytes: [UInt8]) -> Result<PostbackJSON, IngestRefusal> {
        guard let members = try? JSONDecoder().decode([String: Value].self, from: Data(bytes)) else {
            return .failure(.invalid("body must be one JSON object"))
        }
        return .success(PostbackJSON(members: members))
    }

    /// A required string member of 1 to `maxLength` characters without control characters.
    func string(_ name: String, maxLength: Int = 255) throws(IngestRefusal) -> String {
        guard let value = optionalString(name, maxLength: maxLength) else {
            throw .invalid("\(name) must be a string of 1 to \(maxLength) characters")
        }
        return value
    }

    /// An optional string member; nil when absent, a refusal when present but not such a string.
    func optionalString(_ name: String, maxLength: Int = 255) -> String? {
        guard case .string(let text) = members[name], (1...maxLength).contains(text.unicodeScalars.count),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return text
    }

    /// A required non-negative integer at most `maximum`; a string of decimal digits is taken too (Apple's own
    /// examples have sent ids both ways), and its text is what the signature covers.
    func integer(_ name: String, maximum: Int64 = Int64(Int32.max))
        throws(IngestRefusal) -> (value: Int64, text: String)
    {
        guard let value = optionalInteger(name, maximum: maximum) else {
            throw .invalid("\(name) must be an integer from 0 to \(maximum)")
        }
        return value
    }

    /// An optional non-negative integer; nil when absent.
    func optionalInteger(_ name: String, maximum: Int64 = Int64(Int32.max)) -> (value: Int64, text: String)? {
        switch members[name] {
        case .integer(let value) where (0...maximum).contains(value):
            return (value, String(value))
        case .string(let text) where (1...19).contains(text.utf8.count)
            && text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }):
            guard let value = Int64(text), value <= maximum else { return nil }
            return (value, text)
        default:
            return nil
        }
    }

    /// A required boolean.
    func bool(_ name: String) throws(IngestRefusal) -> Bool {
        guard case .bool(let value) = members[name] else { throw .invalid("\(name) must be true or false") }
        return value
    }

    /// Whether the member is present (with any value).
    func has(_ name: String) -> Bool { members[name] != nil }

    /// The optional conversion values every kind may carry: `conversion-value` (0–63), `coarse-conversion-value`.
    func conversionValues() throws(IngestRefusal) -> (fine: Int?, coarse: String?) {
        var fine: Int?
        if has("conversion-value") {
            guard let value = optionalInteger("conversion-value", maximum: 63) else {
                throw .invalid("conversion-value must be an integer from 0 to 63")
            }
            fine = Int(value.value)
        }
        var coarse: String?
        if has("coarse-conversion-value") {
            guard let value = optionalString("coarse-conversion-value"), ["low", "medium", "high"].contains(value)
            else { throw .invalid("coarse-conversion-value must be low, medium or high") }
            coarse = value
        }
        return (fine, coarse)
    }
}
