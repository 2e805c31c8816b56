/// An OpenAPI link: from one answer to the operation a client calls next with a value from it.
struct OpenAPILink: Sendable {
    var name: String
    var operationId: String
    /// Target parameter → runtime expression (`$response.body#/guid`).
    var parameters: [(String, String)] = []
    /// A request body for the target, with runtime expressions inside.
    var requestBody: JSONValue?
    var description: String

    var json: JSONValue {
        .object([
            ("operationId", .string(operationId)),
            ("parameters", parameters.isEmpty ? nil : .object(parameters.map { .init($0.0, .string($0.1)) })),
            ("requestBody", requestBody),
            ("description", .string(description)),
        ])
    }
}
