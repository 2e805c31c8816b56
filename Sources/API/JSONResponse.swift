import Foundation
import HTTPServer
import Telemetry

/// Builds the JSON responses of the contract: errors as `{"statusCode","code"?,"message"}`, success bodies as given.
public enum JSONResponse {
    /// The error body of the contract, keys in a fixed order: `{"statusCode":…,"code":…,"message":…}`.
    public static func error(_ error: APIError) -> Response {
        var body = JSONBytes(capacity: 96 + error.message.utf8.count)
        body.append(raw: "{\"statusCode\":")
        body.append(integer: error.status)
        if let code = error.code {
            body.append(raw: ",\"code\":")
            body.append(string: code.rawValue)
        }
        body.append(raw: ",\"message\":")
        body.append(string: error.message)
        body.append(byte: UInt8(ascii: "}"))
        var headers = Headers([("Content-Type", "application/json")])
        for name in error.headers.keys.sorted() { headers.add(name, error.headers[name]!) }
        return Response(status: error.status, headers: headers, body: body.bytes)
    }

    /// A response whose body is already JSON text.
    public static func raw(_ json: String, status: Int = 200) -> Response {
        Response(status: status, headers: Headers([("Content-Type", "application/json")]), body: Array(json.utf8))
    }

    /// A response whose body is already JSON, as UTF-8 bytes.
    public static func raw(_ json: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: Headers([("Content-Type", "application/json")]), body: json)
    }

    /// Encodes `value` with sorted keys, so the bytes are stable between runs.
    public static func encode<T: Encodable>(_ value: T, status: Int = 200) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(value)
        return Response(status: status, headers: Headers([("Content-Type", "application/json")]), body: Array(body))
    }
}
