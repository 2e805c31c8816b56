@testable import API
import Foundation
import HTTPServer
import Testing

/// `/openapi.json` is built from the routing table: every route has exactly one operation, what follows from the
/// route (secret key, body limit) is stated, links point at real operations, and a schema-valid body fits the limit.
@Suite struct OpenAPIDocumentTests {
    let document = SchemaCheck.document()

    private var operations: [(method: String, path: String, operation: [String: Any])] {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return paths.flatMap { path, item in
            item.compactMap { method, value in (value as? [String: Any]).map { (method.uppercased(), path, $0) } }
        }
    }

    @Test func everyRouteHasOneOperationAndEveryOperationARoute() throws {
        let documented = Set(operations.map { "\($0.method) \($0.path)" })
        let routed = Set(Route.endpoints.map { "\($0.method.rawValue) \($0.pattern)" })
        #expect(documented == routed)
        #expect(operations.count == Route.endpoints.count)
        #expect(documented.contains("GET /docs") && documented.contains("POST /s2s/v1/payments"))
        // Each documented path, with its parameters filled in, is matched by the router to that very pattern.
        for (method, path, _) in operations {
            let concrete = path.replacingOccurrences(of: "{guid}", with: "abc")
                .replacingOccurrences(of: "{paymentId}", with: "pi_1")
                .replacingOccurrences(of: "{pageToken}", with: "t")
            guard case .found(_, let pattern) = Route.router.match(HTTPServer.Method(method),
                                                                  concrete) else {
                Issue.record("the router does not match \(method) \(concrete)")
                continue
            }
            #expect(pattern == path)
        }
        let ids = operations.compactMap { $0.operation["operationId"] as? String }
        #expect(Set(ids).count == operations.count)
    }

    @Test func secretKeyRoutesAreBearerWith401And429AndOthersAreNot() throws {
        for endpoint in Route.endpoints {
            let route = endpoint.make([:])
            let operation = try #require(operations.first {
                $0.method == endpoint.method.rawValue && $0.path == endpoint.pattern
            }?.operation)
            let responses = try #require(operation["responses"] as? [String: Any])
            let secured = operation["security"] != nil
            #expect(secured == (route.access == .secretKey), "\(endpoint.pattern)")
            // Store URLs check their own credentials (a signature, a push token, a shared secret): 401 too.
            var authenticates = route.access == .secretKey
            if case .storeNotification = route { authenticates = true }
            if case .forwardedNotification = route { authenticates = true }
            #expect((responses["401"] != nil) == authenticates, "\(endpoint.pattern)")
            if route.access == .secretKey { #expect(responses["429"] != nil) }
            // The 413 names the route's own limit.
            let tooLarge = try #require(responses["413"] as? [String: Any])
            let limit = route.bodyLimit ?? 0
            let description = tooLarge["description"] as? String ?? ""
            #expect(limit == 0 ? description.contains("takes none") : description.contains("\(limit) bytes"),
                    "\(endpoint.pattern)")
            // 429 and 503 carry Retry-After; every answer carries X-Request-Id.
            for (status, response) in responses {
                let headers = (response as? [String: Any])?["headers"] as? [String: Any] ?? [:]
                #expect(headers["X-Request-Id"] != nil)
                if status == "429" || status == "503" { #expect(headers["Retry-After"] != nil, "\(endpoint.pattern)") }
            }
        }
    }

    @Test func everyRouteThatUsesPostgresOrRedisDocuments503() throws {
        let without = Set(operations.filter { ($0.operation["responses"] as? [String: Any])?["503"] == nil }
            .map { "\($0.method) \($0.path)" })
        #expect(without == ["GET /healthz", "GET /openapi.json", "GET /docs", "GET /docs/redoc.standalone.js",
                            "GET /replay-player.js", "GET /replay-player.css"])
    }

    @Test func everyLinkNamesAnOperationAndItsParameters() throws {
        let byId = Dictionary(uniqueKeysWithValues: operations.compactMap { entry in
            (entry.operation["operationId"] as? String).map { ($0, entry.operation) }
        })
        var links = 0
        for (_, _, operation) in operations {
            for (_, response) in operation["responses"] as? [String: [String: Any]] ?? [:] {
                for (name, link) in response["links"] as? [String: [String: Any]] ?? [:] {
                    links += 1
                    let target = try #require(byId[link["operationId"] as? String ?? ""], "\(name)")
                    let parameters = (target["parameters"] as? [[String: Any]] ?? [])
                        .compactMap { $0["name"] as? String }
                    for key in (link["parameters"] as? [String: String] ?? [:]).keys {
                        #expect(parameters.contains(key), "link \(name): \(key)")
                    }
                    if link["requestBody"] != nil { #expect(target["requestBody"] != nil, "link \(name)") }
                }
            }
        }
        #expect(links >= 30)
    }

    /// The longest body a schema allows, as a client would encode it: each character of a string that may hold
    /// non-ASCII text as a `\uXXXX\uXXXX` pair (12 bytes), of an ASCII one as 2 when it may be `"` or `\` (`\"`),
    /// else 1; Python's `", "` and `": "` separators. Every route's limit must take it, or a valid request could get
    /// 413.
    private func longest(_ schema: Any) -> Int {
        guard let schema = schema as? [String: Any] else { return 0 }
        if let ref = schema["$ref"] as? String {
            return longest(SchemaCheck().components[String(ref.split(separator: "/").last ?? "")] ?? [:])
        }
        for key in ["anyOf", "oneOf"] {
            if let branches = schema[key] as? [Any] { return branches.map(longest).max() ?? 0 }
        }
        if let properties = schema["properties"] as? [String: Any] {
            return 2 + properties.map { $0.key.utf8.count + 6 + longest($0.value) }.reduce(0, +)
        }
        if let values = schema["enum"] as? [String] { return 2 + (values.map(\.utf8.count).max() ?? 0) }
        let types = (schema["type"] as? [String]) ?? [schema["type"] as? String ?? ""]
        if types.contains("string") {
            let pattern = schema["pattern"] as? String ?? ""
            let asciiOnly = !pattern.isEmpty && !pattern.contains("[^") && pattern.utf8.allSatisfy { $0 < 0x80 }
            let shortest = max(1, schema["minLength"] as? Int ?? 1)
            let escaped = ["\"", "\\"].contains {
                SchemaCheck.search(pattern, in: String(repeating: $0, count: shortest))
            }
            return 2 + (schema["maxLength"] as? Int ?? 100_000) * (asciiOnly ? (escaped ? 2 : 1) : 12)
        }
        if types.contains("integer") { return 20 }
        return 5
    }

    @Test func everyBodyTheSchemaAllowsFitsTheRoutesLimit() throws {
        for endpoint in Route.endpoints {
            let operation = try #require(operations.first {
                $0.method == endpoint.method.rawValue && $0.path == endpoint.pattern
            }?.operation)
            guard let body = operation["requestBody"] as? [String: Any] else { continue }
            let schema = ((body["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
            let size = longest(schema ?? [:])
            let limit = try #require(endpoint.make([:]).bodyLimit)
            #expect(size <= limit, "\(endpoint.pattern): a valid body may take \(size) bytes, the limit is \(limit)")
        }
    }
}
