/// What one route takes and answers, as `/openapi.json` states it. Each `Route` declares one
/// (`Route+Operation.swift`); `OpenAPIDocument` adds what follows from the route itself (its method and path, the
/// secret-key gate, the body limit) and the answers every route shares (413, 500, 503).
struct OpenAPIOperation: Sendable {
    /// The stable `operationId`, which links name.
    var id: String
    var summary: String
    var description: String?
    /// `server-to-server`, `public`, `operations` or `documentation`.
    var tag: String
    var parameters: [OpenAPIParameter] = []
    /// The JSON body, if the route reads one.
    var body: JSONSchema?
    /// The body's media type (`application/json` unless the route reads another, e.g. `application/octet-stream`).
    var bodyMediaType = "application/json"
    /// The answers this route gives itself (not those `OpenAPIDocument` adds).
    var responses: [OpenAPIResponse]
    /// Whether the route needs Postgres or Redis, and so answers 503 while they are down.
    var usesBackends = true

    init(id: String, summary: String, description: String? = nil, tag: String,
         parameters: [OpenAPIParameter] = [], body: JSONSchema? = nil,
         bodyMediaType: String = "application/json", responses: [OpenAPIResponse], usesBackends: Bool = true) {
        self.bodyMediaType = bodyMediaType
        self.id = id
        self.summary = summary
        self.description = description
        self.tag = tag
        self.parameters = parameters
        self.body = body
        self.responses = responses
        self.usesBackends = usesBackends
    }
}
