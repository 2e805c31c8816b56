import Telemetry

/// A JSON value whose objects keep their keys in the order written: documents Handoff builds in code
/// (`/openapi.json`), printed compactly and the same way every time.
indirect enum JSONValue: Sendable, Equatable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null

    /// One key and its value in an object.
    struct Member: Sendable, Equatable {
        let key: String
        let value: JSONValue

        init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object of the pairs whose value is not nil, in the order given.
    static func object(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        .object(pairs.compactMap { key, value in value.map { Member(key, $0) } })
    }

    /// The compact JSON text as UTF-8.
    var bytes: [UInt8] {
        var out = JSONBytes(capacity: 1 << 16)
        append(to: &out)
        return out.bytes
    }

    private func append(to out: inout JSONBytes) {
        switch self {
        case .object(let members):
            out.append(byte: UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(string: member.key)
                out.append(byte: UInt8(ascii: ":"))
                member.value.append(to: &out)
            }
            out.append(byte: UInt8(ascii: "}"))
        case .array(let values):
            out.append(byte: UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(byte: UInt8(ascii: ",")) }
                value.append(to: &out)
            }
            out.append(byte: UInt8(ascii: "]"))
        case .string(let text): out.append(string: text)
        case .integer(let value): out.append(integer: value)
        case .bool(let value): out.append(raw: value ? "true" : "false")
        case .null: out.append(raw: "null")
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
}
