@testable import API
import Foundation

/// Judges a value against the string keywords of a JSON Schema the way a JSON Schema validator does: `type`,
/// `pattern` (a search, as JSON Schema has it; the patterns are anchored), `minLength`/`maxLength` in Unicode scalars,
/// `enum`, `const`, `not`, `anyOf`, `oneOf`, `allOf`, and `$ref` into the document's components.
/// Enough for the field schemas of `/openapi.json`; anything else it meets fails the test that uses it.
struct SchemaCheck {
    let components: [String: Any]

    init(document: [String: Any] = SchemaCheck.document()) {
        components = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
    }

    /// The served document, parsed.
    static func document() -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes))) as? [String: Any] ?? [:]
    }

    /// Whether `value` (a String, NSNull, Int or Bool) is valid against `schema`.
    func accepts(_ value: Any, _ schema: Any) -> Bool {
        guard let schema = schema as? [String: Any] else { return false }
        if let ref = schema["$ref"] as? String {
            return accepts(value, components[String(ref.split(separator: "/").last ?? "")] ?? [:])
        }
        for (key, keyword) in schema {
            switch key {
            case "type":
                let types = (keyword as? [String]) ?? [keyword as? String ?? ""]
                guard types.contains(where: { Self.hasType(value, $0) }) else { return false }
            case "pattern":
                guard let text = value as? String else { continue }
                guard Self.search(keyword as? String ?? "", in: text) else { return false }
            case "minLength":
                if let text = value as? String, text.unicodeScalars.count < (keyword as? Int ?? 0) { return false }
            case "maxLength":
                if let text = value as? String, text.unicodeScalars.count > (keyword as? Int ?? 0) { return false }
            case "enum":
                guard (keyword as? [Any] ?? []).contains(where: { Self.same($0, value) }) else { return false }
            case "const":
                guard Self.same(keyword, value) else { return false }
            case "not":
                if accepts(value, keyword) { return false }
            case "anyOf":
                guard (keyword as? [Any] ?? []).contains(where: { accepts(value, $0) }) else { return false }
            case "oneOf":
                guard (keyword as? [Any] ?? []).filter({ accepts(value, $0) }).count == 1 else { return false }
            case "allOf":
                guard (keyword as? [Any] ?? []).allSatisfy({ accepts(value, $0) }) else { return false }
            case "description", "examples", "format", "title": continue
            default: return false
            }
        }
        return true
    }

    /// JSON Schema's `pattern`: an unanchored search; the match must not rely on ICU's `$` before a final newline.
    static func search(_ pattern: String, in text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).contains { match in
            !pattern.hasSuffix("$") || match.range.upperBound == range.upperBound
        }
    }

    private static func hasType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "string": return value is String
        case "null": return value is NSNull
        case "integer": return value is Int
        case "boolean": return value is Bool
        default: return false
        }
    }

    private static func same(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? String, let b = b as? String { return a == b }
        if let a = a as? Int, let b = b as? Int { return a == b }
        return a is NSNull && b is NSNull
    }
}
