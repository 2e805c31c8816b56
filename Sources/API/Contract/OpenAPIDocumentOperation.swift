/// An operation with what its route adds, ready to print.
struct OpenAPIDocumentOperation {
    let operation: OpenAPIOperation
    let secured: Bool
    let bodyLimit: Int

    var json: JSONValue {
        let body: JSONValue? = operation.body.map { schema in
            .object([
                ("required", true),
                ("description", .string(operation.bodyMediaType == "application/json"
                    ? "JSON, at most \(bodyLimit) bytes" : "\(operation.bodyMediaType), at most \(bodyLimit) bytes")),
                ("content", .object([.init(operation.bodyMediaType, .object([.init("schema", schema.json)]))])),
            ])
        }
        return .object([
            ("operationId", .string(operation.id)),
            ("summary", .string(operation.summary)),
            ("description", operation.description.map(JSONValue.string)),
            ("tags", [.string(operation.tag)]),
            ("security", secured ? [["secretKey": []]] : nil),
            ("parameters", operation.parameters.isEmpty ? nil : .array(operation.parameters.map(\.json))),
            ("requestBody", body),
            ("responses", .object(operation.responses.map { .init(String($0.status), $0.json) })),
        ])
    }
}
