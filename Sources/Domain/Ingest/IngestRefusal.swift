/// A refusal of an app-ingest route (`/v1/m/*`), answered in the compact shape
/// `{"ok":false,"code":"…","detail"?:"…","retryAfter"?:seconds}` — never RFC 9457, never the S2S shape.
///
/// `code` values are wire protocol: SDKs branch on them.
public struct IngestRefusal: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The protocol's machine code.
    public var code: String
    /// For `invalid`: the failing part (a field path or a rule), never a value.
    public var detail: String?
    /// For `rate_limited` and `unavailable`: seconds to wait.
    public var retryAfter: Int?

    public init(status: Int, code: String, detail: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// 400: a part of the request is wrong; `detail` names it.
    public static func invalid(_ detail: String) -> IngestRefusal {
        IngestRefusal(status: 400, code: "invalid", detail: detail)
    }

    /// 403: the publishable key is unknown, rotated away, malformed or not bound to an app.
    public static let key = IngestRefusal(status: 403, code: "key")
    /// 403: the platform or bundle id differ from the key's app (the registered bundle id is never echoed).
    public static let appMismatch = IngestRefusal(status: 403, code: "app_mismatch")
    /// 403: the app is switched off.
    public static let disabled = IngestRefusal(status: 403, code: "disabled")
    /// 403: "leads from the app" is off.
    public static let leadDisabled = IngestRefusal(status: 403, code: "lead_disabled")
    /// 403: a recording packet's `sec` is not the secret its session's first packet fixed.
    public static let secret = IngestRefusal(status: 403, code: "secret")
    /// 403: a recording packet with this session's `seq` is already stored.
    public static let duplicate = IngestRefusal(status: 403, code: "duplicate")
    /// 422: the recorded screen matches the app's `recording.excludeScreens`.
    public static let pageExcluded = IngestRefusal(status: 422, code: "page_excluded")
    /// 413: the body (after inflation) is larger than the route takes.
    public static let tooLarge = IngestRefusal(status: 413, code: "too_large")
    /// 404 `not_found`: no `/v1/m/…` endpoint has this path.
    public static let notFound = IngestRefusal(status: 404, code: "not_found")
    /// 405 `method_not_allowed`: the path takes other methods (named in `Allow`).
    public static let methodNotAllowed = IngestRefusal(status: 405, code: "method_not_allowed")

    /// 429 over a limit; `retryAfter` defaults to 60 s.
    public static func rateLimited(retryAfter: Int = 60) -> IngestRefusal {
        IngestRefusal(status: 429, code: "rate_limited", retryAfter: retryAfter)
    }

    /// 503 while a dependency does not answer.
    public static func unavailable(retryAfter: Int = 1) -> IngestRefusal {
        IngestRefusal(status: 503, code: "unavailable", retryAfter: retryAfter)
    }
}
