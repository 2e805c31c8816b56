/// The operations routes: health, readiness, this document and its rendering.
enum OpsOperations {
    static let healthz = OpenAPIOperation(
        id: "healthz", summary: "The process answers", tag: "operations",
        responses: [.json(200, "alive", .object([.required("status", .constant("ok"))]),
                          links: [OpenAPILink(name: "readiness", operationId: "readyz",
                                              description: "then ask whether its dependencies answer")])],
        usesBackends: false)

    static let readyz = OpenAPIOperation(
        id: "readyz", summary: "Postgres and Redis answer", tag: "operations",
        responses: [
            .json(200, "ready", .object([.required("postgres", .constant("up")), .required("redis", .constant("up")),
                                        .required("status", .constant("ready"))]),
                  links: [OpenAPILink(name: "contract", operationId: "getOpenAPIDocument",
                                      description: "the description of every route")]),
        ])

    static let openAPI = OpenAPIOperation(
        id: "getOpenAPIDocument", summary: "This document", tag: "documentation",
        responses: [.json(200, "OpenAPI 3.1, built from the routes and the validation rules the server uses",
                          .anyObject,
                          links: [OpenAPILink(name: "rendered", operationId: "getDocs",
                                              description: "the same document for people")])],
        usesBackends: false)

    static let docs = OpenAPIOperation(
        id: "getDocs", summary: "This document rendered for people (Redoc, served by this build)",
        tag: "documentation",
        responses: [OpenAPIResponse(status: 200, description: "an HTML page that renders /openapi.json",
                                    content: ("text/html", .string()),
                                    links: [OpenAPILink(name: "renderer", operationId: "getDocsScript",
                                                        description: "the script the page loads")])],
        usesBackends: false)

    static let docsScript = OpenAPIOperation(
        id: "getDocsScript", summary: "Redoc's standalone bundle, vendored (MIT licence)", tag: "documentation",
        responses: [
            OpenAPIResponse(status: 200, description: "JavaScript", content: ("text/javascript", .string())),
            .error(404, "this build was shipped without the Handoff_API resources", codes: [.notFound]),
        ],
        usesBackends: false)
}
