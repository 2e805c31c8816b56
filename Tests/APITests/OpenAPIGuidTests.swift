@testable import API
import Domain
import Foundation
import Testing

/// `/openapi.json` describes a guid as the opaque id it is (issue 12 §7), wherever a client sends or reads one.
@Suite struct OpenAPIGuidTests {
    static let guidRef = ["$ref": "#/components/schemas/Guid"]

    private func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
    }

    /// Every schema the document gives a guid in one route: parameters named `guid` (and the paywall's `id`), and
    /// the `guid` and `user_id` properties of request and response bodies.
    private func guidSchemas(_ value: Any, route: String) -> [Any] {
        if let array = value as? [Any] { return array.flatMap { guidSchemas($0, route: route) } }
        guard let object = value as? [String: Any] else { return [] }
        var found: [Any] = []
        if let name = object["name"] as? String, object["in"] != nil,
           name == "guid" || (name == "id" && route == "/public/paywall/buyer") {
            found.append(object["schema"] ?? NSNull())
        }
        if let properties = object["properties"] as? [String: Any] {
            found += ["guid", "user_id"].compactMap { properties[$0] }
        }
        return found + object.values.flatMap { guidSchemas($0, route: route) }
    }

    @Test func theGuidSchemaIsOneTo64CharactersOfTheSafeSet() throws {
        let schemas = try #require((try document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let guid = try #require(schemas["Guid"] as? [String: Any])
        #expect(guid["type"] as? String == "string")
        #expect(guid["pattern"] as? String == "^[A-Za-z0-9._:-]{1,64}$")
        #expect(guid["minLength"] as? Int == 1 && guid["maxLength"] as? Int == 64)
        // The pattern and the parser agree on the edges (the parser also refuses unset device ids and dot segments).
        let pattern = try NSRegularExpression(pattern: try #require(guid["pattern"] as? String))
        for text in ["abc123def456", "9f3c6a2b1d4e5f60", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B", "a", "-_:.",
                     String(repeating: "a", count: 64), "", "a b", "a/b", "é", String(repeating: "a", count: 65)] {
            let matches = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            let parses = (try? BuyerGuid.parse(text).get()) != nil
            #expect(matches == parses, "\(text)")
        }
    }

    @Test func everyGuidSentOrAnsweredRefersToTheGuidSchema() throws {
        let paths = try #require(try document()["paths"] as? [String: Any])
        var found: [String: [Any]] = [:]
        for (route, item) in paths where !guidSchemas(item, route: route).isEmpty {
            found[route] = guidSchemas(item, route: route)
        }
        #expect(Set(found.keys) == ["/s2s/v1/users", "/s2s/v1/payments", "/s2s/v1/users/{guid}",
                                    "/s2s/v1/users/{guid}/entitlements", "/public/entitlements",
                                    "/public/paywall/buyer", "/public/handoff/resolve",
                                    "/public/handoff/resolve-by-fingerprint", "/public/app-account-token",
                                    "/v1/app-store/bind", "/s2s/v1/users/{guid}/erasure",
                                    "/s2s/v1/users/{guid}/timeline", "/s2s/v1/payments/{paymentId}/timeline",
                                    "/s2s/v1/reports/handoff"])
        for (route, schemas) in found {
            for schema in schemas { #expect(schema as? [String: String] == Self.guidRef, "\(route)") }
        }
        // Parameters and request and answer properties, the answers' `data.guid` included; bind's body names it in
        // both of its variants (a click id, or a referral code); the erasure's path parameter and answer; the buyer
        // timeline's path parameter and both timelines' answers; the handoff report's unidentified payments.
        #expect(found.values.map(\.count).reduce(0, +) == 21)
    }
}
