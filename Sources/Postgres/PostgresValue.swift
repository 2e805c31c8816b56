/// A query parameter: SQL NULL, text (sent in text format), raw bytes (sent as binary `bytea`) or a value in the
/// binary format of a given type (`PostgresArray` makes arrays).
///
/// Values travel separately from the SQL text, so nothing in them is ever parsed as SQL.
public enum PostgresValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByNilLiteral
{
    /// SQL NULL.
    case null
    /// A value in Postgres' text representation; the server converts it to the parameter's type.
    /// It must not contain a NUL character (Postgres text cannot hold one): such a query throws.
    case text(String)
    /// Raw bytes for a `bytea` parameter, sent in binary format; any byte values, NUL included.
    case bytea([UInt8])
    /// `bytes` in Postgres's binary format of the type `typeOID`, declared with that type when the statement is
    /// prepared; the server's receive function of the type checks them.
    case binary(typeOID: UInt32, bytes: [UInt8])

    /// Creates a text value from a string literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Creates a text value from an integer literal.
    public init(integerLiteral value: Int) { self = .text(String(value)) }
    /// Creates SQL NULL.
    public init(nilLiteral: ()) { self = .null }

    /// An integer in decimal text.
    public static func int(_ value: Int) -> PostgresValue { .text(String(value)) }
    /// A boolean as `true`/`false`.
    public static func bool(_ value: Bool) -> PostgresValue { .text(value ? "true" : "false") }
    /// A floating-point number in text form (`Infinity`, `-Infinity` and `NaN` as Postgres spells them).
    public static func double(_ value: Double) -> PostgresValue {
        if value.isNaN { return .text("NaN") }
        if value.isInfinite { return .text(value < 0 ? "-Infinity" : "Infinity") }
        return .text(String(value))
    }
    /// A text value, or NULL when `value` is nil.
    public static func optional(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
    /// An integer, or NULL when `value` is nil.
    public static func optional(_ value: Int?) -> PostgresValue { value.map(PostgresValue.int) ?? .null }
    /// Bytes, or NULL when `value` is nil.
    public static func optional(_ value: [UInt8]?) -> PostgresValue { value.map(PostgresValue.bytea) ?? .null }
}
