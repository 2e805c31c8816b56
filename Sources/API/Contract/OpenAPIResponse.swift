import Domain

/// One answer of an operation: its status, body, headers and the links a client may follow from it.
struct OpenAPIResponse: Sendable {
    var status: Int
    var description: String
    /// The media type and schema of the body; nil for an empty body.
    var content: (mediaType: String, schema: JSONSchema)?
    /// Headers besides `X-Request-Id` (which every answer has).
    var headers: [(name: String, schema: JSONSchema, description: String)] = []
    var links: [OpenAPILink] = []

    /// A JSON answer.
    static func json(_ status: Int, _ description: String, _ schema: JSONSchema, links: [OpenAPILink] = [])
        -> OpenAPIResponse
    {
        OpenAPIResponse(status: status, description: description, content: ("application/json", schema),
                        links: links)
    }

    /// An answer without a body.
    static func empty(_ status: Int, _ description: String) -> OpenAPIResponse {
        OpenAPIResponse(status: status, description: description, content: nil)
    }

    /// An error answer `{"statusCode","code","message"}`: `statusCode` is `status`, `code` one of `codes` (absent
    /// when `codes` is empty, as on the public 404s).
    static func error(_ status: Int, _ description: String, codes: [MachineCode], retryAfter: Bool = false)
        -> OpenAPIResponse
    {
        var properties: [JSONSchema.Property] = [.required("statusCode", .constant(.integer(status)))]
        if !codes.isEmpty {
            let names = Array(Set(codes.map(\.rawValue))).sorted()
            properties.append(.required("code", .enumeration(names)))
        }
        properties.append(.required("message", JSONSchema.string()
            .described("for people: names the field or the limit; never echoes a value")))
        var response = OpenAPIResponse.json(status, description, JSONSchema.object(properties).with("title", "Error"))
        if retryAfter {
            response.headers.append(("Retry-After", .integer(minimum: 0), "seconds to wait before trying again"))
        }
        return response
    }

    var json: JSONValue {
        var headerMembers: [JSONValue.Member] = [.init("X-Request-Id", .object([
            ("description", "the caller's X-Request-Id when it is 8–64 of [A-Za-z0-9._-], else one made here"),
            ("required", true), ("schema", JSONSchema.string(lengths: 1...64).json),
        ]))]
        for header in headers {
            headerMembers.append(.init(header.name, .object([
                ("description", .string(header.description)), ("required", true), ("schema", header.schema.json),
            ])))
        }
        return .object([
            ("description", .string(description)),
            ("headers", .object(headerMembers)),
            ("content", content.map { .object([.init($0.mediaType, .object([.init("schema", $0.schema.json)]))]) }),
            ("links", links.isEmpty ? nil : .object(links.map { .init($0.name, $0.json) })),
        ])
    }
}
