import Domain
import HTTPServer

/// `/openapi.json`, built once from `Route.endpoints` and each route's `operation`, so the document and the router
/// cannot disagree about which routes exist.
///
/// What follows from the route itself is added here: the path and method, the bearer scheme and 401/429 of
/// `.secretKey` routes, the 413 of the route's body limit, the 503 while Postgres or Redis is down (every route that
/// uses them), and the generic 500.
enum OpenAPIDocument {
    /// The document as JSON text (UTF-8).
    static let bytes: [UInt8] = document.bytes

    static var document: JSONValue {
        var paths: [(pattern: String, methods: [JSONValue.Member])] = []
        for endpoint in Route.endpoints {
            let member = JSONValue.Member(endpoint.method.rawValue.lowercased(), operation(endpoint).json)
            if let index = paths.firstIndex(where: { $0.pattern == endpoint.pattern }) {
                paths[index].methods.append(member)
            } else {
                paths.append((endpoint.pattern, [member]))
            }
        }
        return .object([
            ("openapi", "3.1.0"),
            ("info", .object([
                ("title", "Handoff"), ("version", "0.1.0"),
                ("description", .string(description)),
            ])),
            ("tags", tags),
            ("components", .object([
                ("schemas", .object(ContractSchemas.components.map { .init($0.0, $0.1.json) })),
                ("securitySchemes", ["secretKey": [
                    "type": "http", "scheme": "bearer",
                    "description": "a project's secret key, sk_live_…, shown once when it is created",
                ]]),
            ])),
            ("paths", .object(paths.map { .init($0.pattern, .object($0.methods)) })),
        ])
    }

    /// The groups of operations, in the order a reader meets them.
    static let tags: JSONValue = .array([
        tag("server-to-server", "For the tenant's backend: Authorization: Bearer sk_live_… (a project's secret key, "
            + "which reaches only its own project); rate-limited per key."),
        tag("public", "For apps, browsers and the paywall: no key; rate-limited per client IP, and refused (503) "
            + "rather than unlimited while Redis is down."),
        tag("stores", "For App Store, Google Play and RevenueCat: each app's store URLs, keyed by its store token; "
            + "rate-limited per token."),
        tag("app-ingest", "For the mobile SDKs: /v1/m/* with the app's publishable key (pk_3x_…); errors are compact, "
            + "{\"ok\":false,\"code\",\"detail\"?,\"retryAfter\"?}, never the shape above."),
        tag("operations", "Health and readiness, for load balancers."),
        tag("documentation", "This document, as JSON and rendered."),
    ])

    private static func tag(_ name: String, _ description: String) -> JSONValue {
        .object([.init("name", .string(name)), .init("description", .string(description))])
    }

    static let description = """
        Carries a web purchase into a mobile app. Every JSON error is {"statusCode","code","message"}: statusCode \
        repeats the HTTP status, code is a stable machine code (absent on the public 404s), message is for people. \
        Every answer carries X-Request-Id. A method a path does not take is 405 with Allow; a path no route has is \
        404 NOT_FOUND. Prometheus metrics (GET /metrics) are not served on this port but on a listener of their own \
        (METRICS_ADDRESS, default 127.0.0.1:9464).
        """

    /// The full operation of `endpoint`: its route's own, plus what follows from the route.
    static func operation(_ endpoint: Route.Endpoint) -> OpenAPIDocumentOperation {
        let route = endpoint.make(placeholders(endpoint.pattern))
        var operation = route.operation
        var added: [OpenAPIResponse] = []
        if route.access == .secretKey {
            added.append(.error(401, "missing, malformed, unknown or revoked key", codes: [.unauthorized]))
            added.append(.error(429, "over the key's budget, or over \(Environment.defaultAuthFailureLimit.burst) "
                                + "failed key checks per minute from this client IP", codes: [.rateLimited],
                                retryAfter: true))
        }
        let limit = route.bodyLimit ?? 0
        added.append(.error(413, limit == 0 ? "a body (this route takes none)" : "a body over \(limit) bytes",
                            codes: [.payloadTooLarge]))
        if operation.usesBackends {
            added.append(.error(503, "Postgres or Redis does not answer (or this server has no identity secrets)",
                                codes: [.unavailable], retryAfter: true))
        }
        added.append(.error(500, "an unexpected failure; the message carries the request id", codes: [.internalError]))
        for response in added where !operation.responses.contains(where: { $0.status == response.status }) {
            operation.responses.append(response)
        }
        operation.responses.sort { $0.status < $1.status }
        return OpenAPIDocumentOperation(operation: operation, secured: route.access == .secretKey, bodyLimit: limit)
    }

    /// `{name}` for every parameter of `pattern`, so a route value can be made without a request.
    private static func placeholders(_ pattern: String) -> [String: String] {
        var values: [String: String] = [:]
        for segment in pattern.split(separator: "/") where segment.hasPrefix("{") && segment.hasSuffix("}") {
            values[String(segment.dropFirst().dropLast())] = String(segment)
        }
        return values
    }
}
