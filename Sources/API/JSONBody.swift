import Foundation
import HTTPServer

/// Decodes a request body into a `Decodable` value, or throws a 400 `APIError` whose message names the field.
public enum JSONBody {
    /// Decodes `request.body` as `T`. Errors: empty body, invalid JSON, not an object, missing field,
    /// wrong type, null where a value is required — each a 400 with the field path (`items[2].sku`).
    public static func decode<T: Decodable>(_ type: T.Type, from request: Request) throws -> T {
        try decode(type, from: request.body)
    }

    /// Decodes `bytes` as `T`; see `decode(_:from:)`.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard bytes.contains(where: { !Self.isWhitespace($0) }) else {
            throw APIError.invalidJSON("the body is empty; a JSON object is required")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw refusal(for: error)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.invalidJSON("the body is not valid JSON")
        }
    }

    /// Maps Foundation's decoding error to the refusal a client reads.
    static func refusal(for error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            return .validation("field '\(path(context.codingPath + [key]))' is required")
        case .valueNotFound(_, let context):
            return .validation("field '\(path(context.codingPath))' must not be null")
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return .invalidJSON("the body must be a JSON object") }
            return .validation("field '\(path(context.codingPath))' must be \(describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .invalidJSON("the body is not valid JSON") }
            return .validation("field '\(path(context.codingPath))' has an invalid value")
        @unknown default:
            return .invalidJSON("the body is not valid JSON")
        }
    }

    /// `a.b[2].c` from a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }

    /// "a string", "an integer", … for the type a field must have.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "an object"
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
