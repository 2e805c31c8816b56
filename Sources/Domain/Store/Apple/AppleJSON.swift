import Foundation

/// Decodes the JSON payloads of App Store JWS into the `Apple…` models, refusing strings over their limits.
enum AppleJSON {
    /// `T` from `bytes`, or a failure whose message names the field (never its value).
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> Result<T, ApplePayloadFailure> {
        do {
            return .success(try JSONDecoder().decode(type, from: Data(bytes)))
        } catch let error as FieldTooLong {
            return .failure(ApplePayloadFailure(message: "field '\(error.path)' is longer than \(error.limit) bytes"))
        } catch let error as FieldRefused {
            return .failure(ApplePayloadFailure(message: "field '\(error.path)' \(error.rule)"))
        } catch let DecodingError.typeMismatch(expected, context) where !context.codingPath.isEmpty {
            return .failure(ApplePayloadFailure(
                message: "field '\(path(context.codingPath))' must be \(kind(expected))"))
        } catch let DecodingError.valueNotFound(expected, context) where !context.codingPath.isEmpty {
            return .failure(ApplePayloadFailure(
                message: "field '\(path(context.codingPath))' must be \(kind(expected))"))
        } catch let DecodingError.keyNotFound(key, context) {
            return .failure(ApplePayloadFailure(
                message: "field '\(path(context.codingPath + [key]))' is required"))
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            return .failure(ApplePayloadFailure(message: "field '\(path(context.codingPath))' is not valid"))
        } catch {
            return .failure(ApplePayloadFailure(message: "the payload is not a JSON object"))
        }
    }

    /// `a.b[2].c` for a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int64.Type, is Int.Type, is Int32.Type: "an integer"
        case is [String].Type: "an array of strings"
        default: "an object"
        }
    }

    /// A string over its limit.
    struct FieldTooLong: Error {
        let path: String
        let limit: Int
    }

    /// A value of the right type that breaks a rule of its field (`rule` completes "field 'x' …").
    struct FieldRefused: Error {
        let path: String
        let rule: String
    }
}

/// Why an App Store payload could not be decoded: a sentence naming the field, never its value.
public struct ApplePayloadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public let message: String

    public var description: String { message }
}

extension KeyedDecodingContainer {
    /// The string at `key`, nil when absent or null; throws when it is longer than `limit` UTF-8 bytes.
    func text(_ key: Key, limit: Int) throws -> String? {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard value.utf8.count <= limit else {
            throw AppleJSON.FieldTooLong(path: AppleJSON.path(codingPath + [key]), limit: limit)
        }
        return value
    }

    /// The integer at `key` (64-bit: milliseconds, milliunits, ids), nil when absent or null.
    func integer(_ key: Key) throws -> Int64? {
        try decodeIfPresent(Int64.self, forKey: key)
    }

    /// The boolean at `key`, nil when absent or null.
    func flag(_ key: Key) throws -> Bool? {
        try decodeIfPresent(Bool.self, forKey: key)
    }

    /// The array of strings at `key`, nil when absent or null; throws when it has more than
    /// `AppleFieldLimits.listEntries` entries or an entry longer than `limit`.
    func texts(_ key: Key, limit: Int) throws -> [String]? {
        guard let values = try decodeIfPresent([String].self, forKey: key) else { return nil }
        guard values.count <= AppleFieldLimits.listEntries else {
            throw AppleJSON.FieldRefused(path: AppleJSON.path(codingPath + [key]),
                                         rule: "has more than \(AppleFieldLimits.listEntries) entries")
        }
        for (index, value) in values.enumerated() where value.utf8.count > limit {
            throw AppleJSON.FieldTooLong(path: AppleJSON.path(codingPath + [key]) + "[\(index)]", limit: limit)
        }
        return values
    }
}
