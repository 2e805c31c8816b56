import Domain

/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) built in code from the parsers' own constants.
///
/// A schema is its keywords in order; the builders below cover what the API needs. Patterns are whole-text regular
/// expressions in the subset ECMA-262, Python, ICU and Rust read alike; lengths count Unicode scalars.
struct JSONSchema: Sendable, Equatable {
    /// The keywords, in the order they print.
    private(set) var keywords: [JSONValue.Member]

    init(_ keywords: [JSONValue.Member]) { self.keywords = keywords }

    /// The schema as JSON.
    var json: JSONValue { .object(keywords) }

    /// This schema with one more keyword (or an existing one replaced).
    func with(_ key: String, _ value: JSONValue) -> JSONSchema {
        var copy = self
        if let index = copy.keywords.firstIndex(where: { $0.key == key }) {
            copy.keywords[index] = .init(key, value)
        } else {
            copy.keywords.append(.init(key, value))
        }
        return copy
    }

    /// A string, optionally with a whole-text `pattern` and a range of lengths.
    static func string(pattern: String? = nil, lengths: ClosedRange<Int>? = nil, format: String? = nil)
        -> JSONSchema
    {
        var schema = JSONSchema([.init("type", "string")])
        if let lengths {
            schema = schema.with("minLength", .integer(lengths.lowerBound))
                .with("maxLength", .integer(lengths.upperBound))
        }
        if let pattern { schema = schema.with("pattern", .string(pattern)) }
        if let format { schema = schema.with("format", .string(format)) }
        return schema
    }

    /// A string of `lengths` characters of `set`.
    static func string(_ set: ASCIISet, lengths: ClosedRange<Int>) -> JSONSchema {
        .string(pattern: set.pattern(lengths: lengths), lengths: lengths)
    }

    /// An integer, optionally bounded.
    static func integer(minimum: Int? = nil, maximum: Int? = nil) -> JSONSchema {
        var schema = JSONSchema([.init("type", "integer")])
        if let minimum { schema = schema.with("minimum", .integer(minimum)) }
        if let maximum { schema = schema.with("maximum", .integer(maximum)) }
        return schema
    }

    static let boolean = JSONSchema([.init("type", "boolean")])
    static let null = JSONSchema([.init("type", "null")])
    /// Any JSON object (a document this schema does not describe field by field).
    static let anyObject = JSONSchema([.init("type", "object")])

    /// One of the strings `values`.
    static func enumeration(_ values: [String]) -> JSONSchema {
        JSONSchema([.init("type", "string"), .init("enum", .array(values.map(JSONValue.string)))])
    }

    /// Exactly `value`.
    static func constant(_ value: JSONValue) -> JSONSchema { JSONSchema([.init("const", value)]) }

    /// A reference to `#/components/schemas/<name>`.
    static func ref(_ name: String) -> JSONSchema {
        JSONSchema([.init("$ref", .string("#/components/schemas/\(name)"))])
    }

    /// An array of `items`.
    static func array(_ items: JSONSchema) -> JSONSchema {
        JSONSchema([.init("type", "array"), .init("items", items.json)])
    }

    /// An object with `properties`; `closed` (the default) refuses every other property, as the server does.
    static func object(_ properties: [Property], closed: Bool = true) -> JSONSchema {
        var schema = JSONSchema([.init("type", "object")])
        let required = properties.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema = schema.with("required", .array(required)) }
        schema = schema.with("properties", .object(properties.map { .init($0.name, $0.schema.json) }))
        if closed { schema = schema.with("additionalProperties", false) }
        return schema
    }

    /// Valid against at least one of `schemas`.
    static func anyOf(_ schemas: [JSONSchema]) -> JSONSchema {
        JSONSchema([.init("anyOf", .array(schemas.map(\.json)))])
    }

    /// Valid against exactly one of `schemas`.
    static func oneOf(_ schemas: [JSONSchema]) -> JSONSchema {
        JSONSchema([.init("oneOf", .array(schemas.map(\.json)))])
    }

    /// This schema, and not valid against `other`.
    func excluding(_ other: JSONSchema) -> JSONSchema { with("not", other.json) }

    /// This schema or `null`: `type` becomes `[type, "null"]` where that keeps its meaning, else `anyOf` with null
    /// (`not`, `enum` and `const` would refuse null).
    func nullable() -> JSONSchema {
        let refusingNull: Set<String> = ["enum", "const", "not", "anyOf", "oneOf", "allOf"]
        if let index = keywords.firstIndex(where: { $0.key == "type" }),
           case .string(let type) = keywords[index].value, !keywords.contains(where: { refusingNull.contains($0.key) }) {
            return with("type", [.string(type), "null"])
        }
        return .anyOf([self, .null])
    }

    /// This schema with an example value (what the examples phase of a contract test sends first).
    func example(_ value: JSONValue) -> JSONSchema { with("examples", [value]) }

    /// This schema with a human description.
    func described(_ text: String) -> JSONSchema { with("description", .string(text)) }

    /// One property of an object schema.
    struct Property: Sendable {
        let name: String
        let schema: JSONSchema
        let required: Bool

        /// A property that must be present.
        static func required(_ name: String, _ schema: JSONSchema) -> Property {
            Property(name: name, schema: schema, required: true)
        }

        /// A property that may be absent.
        static func optional(_ name: String, _ schema: JSONSchema) -> Property {
            Property(name: name, schema: schema, required: false)
        }
    }
}
