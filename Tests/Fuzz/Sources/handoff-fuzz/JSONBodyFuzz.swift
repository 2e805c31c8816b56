@testable import API
import Foundation

/// `json-body`: the bytes as the body of every JSON endpoint (`JSONBody.decode` into each request type).
///
/// Properties: a body either decodes or is refused with a 400 `APIError` whose code is `INVALID_JSON` or a
/// `VALIDATION_*` code and whose message is not empty; a refusal never repeats a string value of the body that looks
/// like personal data (8 characters or more with `@`, or with a digit and no space); every decoded body passes its
/// own validators again and survives a print/parse round trip (`JSONBodyFuzz+RoundTrips.swift`; the app bodies in
/// `JSONBodyFuzz+Apps.swift`).
enum JSONBodyFuzz {
    static let target = FuzzTarget(name: "json-body", maxLength: 4096, run: run)

    static func run(_ bytes: [UInt8]) {
        decode(PaymentRequest.self, bytes) { checkRoundTrip($0) }
        decode(UserRequest.self, bytes) { checkRoundTrip($0) }
        decode(ProjectSettingsPatch.self, bytes) { checkApplied($0) }
        decode(FingerprintCaptureRequest.self, bytes) { checkRoundTrip($0) }
        decode(ResolveByFingerprintRequest.self, bytes) { checkRoundTrip($0) }
        decode(API.EmailRecoveryRequest.self, bytes) { checkRoundTrip($0) }
        decode(AppBody.Create.self, bytes) { checkValid($0) }
        decode(AppBody.Patch.self, bytes) { checkValid($0) }
        decode(DestinationBody.self, bytes) { checkValid($0) }
        decode(AppAccountTokenHandler.Body.self, bytes) { checkRoundTrip($0) }
    }

    /// Decodes `bytes` as `T`, checks a refusal's shape, and hands a decoded value to `properties`.
    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], properties: (T) -> Void) {
        let value: T
        do {
            value = try JSONBody.decode(T.self, from: bytes)
        } catch let error as APIError {
            checkRefusal(error, of: T.self, bytes)
            return
        } catch {
            check(false, "\(T.self): JSONBody.decode threw \(Swift.type(of: error)), not an APIError")
            return
        }
        properties(value)
    }

    private static func checkRefusal<T>(_ error: APIError, of type: T.Type, _ bytes: [UInt8]) {
        let code = error.code?.rawValue ?? ""
        check(error.status == 400, "\(T.self): refusal status \(error.status)")
        check(code == "INVALID_JSON" || code.hasPrefix("VALIDATION_"), "\(T.self): refusal code '\(code)'")
        check(!error.message.isEmpty, "\(T.self): empty refusal message")
        if let echoed = echoedValue(in: error.message, body: bytes) {
            check(false, "\(T.self): the refusal '\(error.message)' repeats the value '\(echoed)'")
        }
    }

    /// A string value of the body (8+ characters with `@`, or with a digit and no space) that the message repeats, if
    /// any. Field names may appear in messages, so every object key of the body is blanked out of the message before
    /// looking; the rules the messages quote have no 8-character run without spaces that holds a digit or `@`.
    ///
    /// Works on UTF-8 bytes: Foundation's `replacingOccurrences(of:with:)` traps on Linux when the text searched for
    /// ends in NUL (`"not".replacingOccurrences(of: "t\u{0}", with: "")`), which JSON keys may.
    static func echoedValue(in message: String, body: [UInt8]) -> String? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
            return nil
        }
        var keys: [String] = []
        var values: [String] = []
        collectStrings(json, keys: &keys, values: &values)
        var blanked = Array(message.utf8)
        for key in keys.sorted(by: { $0.utf8.count > $1.utf8.count }) where !key.isEmpty {
            blanked = blanked.replacing(Array(key.utf8), with: [0x01])
        }
        return values.first { value in
            let hasDigit = value.contains { $0.isASCII && $0.isNumber }
            let looksPersonal = value.contains("@") || hasDigit && !value.contains(" ")
            return value.count >= 8 && looksPersonal && !value.utf8.contains(0x01)
                && blanked.firstRange(of: Array(value.utf8)) != nil
        }
    }

    private static func collectStrings(_ json: Any, keys: inout [String], values: inout [String]) {
        switch json {
        case let object as [String: Any]:
            for (key, value) in object {
                keys.append(key)
                collectStrings(value, keys: &keys, values: &values)
            }
        case let array as [Any]:
            for value in array { collectStrings(value, keys: &keys, values: &values) }
        case let string as String:
            values.append(string)
        default:
            break
        }
    }
}
