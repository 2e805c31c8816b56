import Foundation

/// A value of a Google document that is present but breaks a rule: "field '<path>' must <rule>".
struct GoogleFieldError: Error {
    let path: [any CodingKey]
    let rule: String
}

/// Decoding of the JSON documents Google sends (Pub/Sub pushes, notifications, tokens, key sets), with refusals that
/// name the field and the rule and never repeat a value.
enum GoogleJSON {
    /// Decodes `bytes` as `T`; a refusal's message names fields from `prefix` (`""` for a request body, or e.g.
    /// `message.data` for a document inside one).
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], prefix: String
    ) -> Result<T, GoogleIntakeFailure> {
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(bytes)))
        } catch let error as GoogleFieldError {
            return .failure(.malformed(message: "field '\(path(prefix, error.path))' must \(error.rule)"))
        } catch let error as DecodingError {
            return .failure(.malformed(message: message(for: error, prefix: prefix)))
        } catch {
            return .failure(.malformed(message: notJSON(prefix)))
        }
    }

    /// The message for Foundation's decoding error, naming the field.
    private static func message(for error: DecodingError, prefix: String) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "field '\(path(prefix, context.codingPath + [key]))' is required"
        case .valueNotFound(_, let context):
            if context.codingPath.isEmpty { return notObject(prefix) }
            return "field '\(path(prefix, context.codingPath))' must not be null"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return notObject(prefix) }
            return "field '\(path(prefix, context.codingPath))' must be \(describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return notJSON(prefix) }
            return "field '\(path(prefix, context.codingPath))' has an invalid value"
        @unknown default:
            return notJSON(prefix)
        }
    }

    private static func notJSON(_ prefix: String) -> String {
        prefix.isEmpty ? "the body is not valid JSON" : "field '\(prefix)' does not hold valid JSON"
    }

    private static func notObject(_ prefix: String) -> String {
        prefix.isEmpty ? "the body must be a JSON object" : "field '\(prefix)' must hold a JSON object"
    }

    /// `prefix.a.b[2].c` from a coding path.
    static func path(_ prefix: String, _ keys: [any CodingKey]) -> String {
        var out = prefix
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: String(describing: type).hasPrefix("Array<") ? "an array" : "an object"
        }
    }

    /// True for 1…`maxLength` bytes of printable ASCII without spaces (ids, tokens, versions, instants).
    static func isToken(_ text: String, maxLength: Int) -> Bool {
        (1...maxLength).contains(text.utf8.count) && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

extension KeyedDecodingContainer {
    /// A required string of 1…`maxLength` printable ASCII characters without spaces.
    func googleToken(_ key: Key, maxLength: Int) throws -> String {
        let text = try decode(String.self, forKey: key)
        try googleCheck(GoogleJSON.isToken(text, maxLength: maxLength), key,
                        "be 1 to \(maxLength) printable ASCII characters without spaces")
        return text
    }

    /// An optional string of 1…`maxLength` printable ASCII characters without spaces; nil when absent or null.
    func googleOptionalToken(_ key: Key, maxLength: Int) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try googleToken(key, maxLength: maxLength)
    }

    /// A required whole number from 0 to 2^31 − 1 (Google's enumerations).
    func googleEnumeration(_ key: Key) throws -> Int {
        Int(try googleWholeNumber(key, in: 0...Int64(Int32.max), rule: "be a whole number from 0 to 2147483647"))
    }

    /// A required JSON number that is whole and within `range` (at most 2^53 in size, so exact as a `Double`);
    /// anything else present — text, a fraction, a boolean — is refused with `rule`.
    func googleWholeNumber(_ key: Key, in range: ClosedRange<Int64>, rule: String) throws -> Int64 {
        let number: Double
        do {
            number = try decode(Double.self, forKey: key)
        } catch DecodingError.typeMismatch, DecodingError.dataCorrupted {
            throw GoogleFieldError(path: codingPath + [key], rule: rule)
        }
        try googleCheck(number.rounded() == number && Double(range.lowerBound) <= number
                            && number <= Double(range.upperBound), key, rule)
        return Int64(number)
    }

    /// Throws "field '…<key>' must <rule>" unless `condition` holds.
    func googleCheck(_ condition: Bool, _ key: Key, _ rule: String) throws {
        guard condition else { throw GoogleFieldError(path: codingPath + [key], rule: rule) }
    }
}
