import HTTPServer

/// `/openapi.json`: the OpenAPI 3.1 description of the endpoints this build serves (`OpenAPIDocument`).
enum OpenAPIHandler {
    static func document(_ request: Request, _ environment: Environment) -> Response {
        Response(status: 200, headers: Headers([("Content-Type", "application/json")]), body: OpenAPIDocument.bytes)
    }
}
