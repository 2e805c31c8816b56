/// A value in a log line: a JSON string, integer, number or boolean.
public enum LogValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    /// A duration in milliseconds with three decimals (`12.345`), written without floating-point formatting.
    case milliseconds(microseconds: Int)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Appends this value as JSON.
    func append(to line: inout JSONBytes) {
        switch self {
        case .string(let text): line.append(string: text)
        case .int(let value): line.append(integer: value)
        case .double(let value): line.append(raw: value.isFinite ? String(value) : "null")
        case .bool(let value): line.append(raw: value ? "true" : "false")
        case .milliseconds(let microseconds):
            if microseconds < 0 { line.append(byte: UInt8(ascii: "-")) }
            let magnitude = abs(microseconds)
            line.append(integer: magnitude / 1000)
            line.append(byte: UInt8(ascii: "."))
            let fraction = magnitude % 1000
            if fraction < 100 { line.append(byte: UInt8(ascii: "0")) }
            if fraction < 10 { line.append(byte: UInt8(ascii: "0")) }
            line.append(integer: fraction)
        }
    }
}
