/// A path, query or header parameter.
struct OpenAPIParameter: Sendable {
    enum Location: String, Sendable { case path, query, header }

    var name: String
    var location: Location
    var schema: JSONSchema
    var required: Bool
    var description: String?

    static func path(_ name: String, _ schema: JSONSchema, _ description: String? = nil) -> OpenAPIParameter {
        OpenAPIParameter(name: name, location: .path, schema: schema, required: true, description: description)
    }

    static func query(_ name: String, _ schema: JSONSchema, required: Bool = false, _ description: String? = nil)
        -> OpenAPIParameter
    {
        OpenAPIParameter(name: name, location: .query, schema: schema, required: required, description: description)
    }

    static func header(_ name: String, _ schema: JSONSchema, _ description: String? = nil) -> OpenAPIParameter {
        OpenAPIParameter(name: name, location: .header, schema: schema, required: false, description: description)
    }

    var json: JSONValue {
        .object([("name", .string(name)), ("in", .string(location.rawValue)), ("required", .bool(required)),
                 ("description", description.map(JSONValue.string)), ("schema", schema.json)])
    }
}
