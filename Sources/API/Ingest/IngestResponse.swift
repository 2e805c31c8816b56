import Domain
import Foundation
import HTTPServer
import Telemetry

/// The answers of `/v1/m/*` (app ingest): compact JSON, `{"ok":true,…}` or `{"ok":false,"code":"…",…}` — never the
/// S2S error shape. Optional members that are absent or false are left out, never written as null.
enum IngestResponse {
    /// `{"ok":false,"code":…,"detail"?:…,"retryAfter"?:…}`, with `Retry-After` when `retryAfter` is set.
    static func error(_ refusal: IngestRefusal) -> Response {
        var body = JSONBytes(capacity: 64 + (refusal.detail?.utf8.count ?? 0))
        body.append(raw: "{\"ok\":false,\"code\":")
        body.append(string: refusal.code)
        if let detail = refusal.detail {
            body.append(raw: ",\"detail\":")
            body.append(string: detail)
        }
        var headers = Headers([("Content-Type", "application/json")])
        if let seconds = refusal.retryAfter {
            body.append(raw: ",\"retryAfter\":")
            body.append(integer: seconds)
            headers.add("Retry-After", String(seconds))
        }
        body.append(byte: UInt8(ascii: "}"))
        return Response(status: refusal.status, headers: headers, body: body.bytes)
    }

    /// The compact refusal for an error a shared part of the edge threw (rate limits, outages, the S2S refusal
    /// types): 400 `invalid` with the message as `detail`, 413 `too_large`, 429 `rate_limited`, 503 `unavailable`;
    /// nil for anything else (the caller answers 500).
    static func refusal(for error: APIError) -> IngestRefusal? {
        let retryAfter = error.headers["Retry-After"].flatMap(Int.init)
        switch error.status {
        case 400: return .invalid(error.message)
        case 413: return .tooLarge
        case 429: return .rateLimited(retryAfter: retryAfter ?? 60)
        case 503: return .unavailable(retryAfter: retryAfter ?? 1)
        default: return nil
        }
    }

    /// 500 for a failure the protocol has no code for; the detail is in the log under the request id.
    static let internalError = IngestRefusal(status: 500, code: "internal")

    /// A success body encoded with sorted keys.
    static func encode<T: Encodable>(_ value: T, headers extra: [(String, String)] = []) throws -> Response {
        var response = try JSONResponse.encode(value)
        for (name, value) in extra { response.headers.add(name, value) }
        return response
    }
}
