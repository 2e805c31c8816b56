import Domain

/// A refusal that reaches the client as `{"statusCode","code","message"}`; handlers throw it, the edge maps it.
public struct APIError: Error, Sendable, Equatable {
    public let status: Int
    public let code: MachineCode?
    public let message: String
    /// Extra headers for this refusal (`Retry-After`, `Allow`).
    public let headers: [String: String]

    public init(status: Int, code: MachineCode?, message: String, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// 400 for a body that does not parse as JSON.
    public static func invalidJSON(_ message: String) -> APIError {
        APIError(status: 400, code: .invalidJSON, message: message)
    }

    /// 400 for a field that is missing or wrong; `message` names the field.
    public static func validation(_ message: String) -> APIError {
        APIError(status: 400, code: .validationFailed, message: message)
    }

    /// 401 for a missing, malformed, unknown or revoked secret key.
    public static func unauthorized(_ message: String) -> APIError {
        APIError(status: 401, code: .unauthorized, message: message)
    }

    /// 400 for one refused field, with the refusal's own machine code.
    public init(_ refusal: FieldRefusal) {
        self.init(status: 400, code: refusal.code, message: refusal.message)
    }

    /// The HTTP answer of a write-model refusal: 400 invalid, 404 not found, 409 conflict, 503 unavailable (with
    /// `Retry-After: 1`); its machine code and message unchanged. The one place refusals become statuses.
    public init(_ refusal: Refusal) {
        switch refusal.kind {
        case .invalid: self.init(status: 400, code: refusal.code ?? .validationFailed, message: refusal.message)
        case .notFound: self.init(status: 404, code: refusal.code ?? .notFound, message: refusal.message)
        case .conflict: self.init(status: 409, code: refusal.code, message: refusal.message)
        case .unavailable: self = .unavailable(refusal.message)
        }
    }

    /// 404 for a path no route has.
    public static let notFound = APIError(status: 404, code: .notFound, message: "no route for this path")

    /// 429 over a rate limit.
    public static func rateLimited(retryAfterSeconds: Int) -> APIError {
        APIError(status: 429, code: .rateLimited, message: "too many requests; retry after \(retryAfterSeconds) s",
                 headers: ["Retry-After": String(retryAfterSeconds)])
    }

    /// The refusal for a rate-limit decision, or nil when the request may go ahead.
    public static func refusal(for decision: RateLimitDecision) -> APIError? {
        switch decision {
        case .allowed: return nil
        case .limited(let seconds): return .rateLimited(retryAfterSeconds: seconds)
        case .unavailable(let seconds):
            return .unavailable("rate limiting is unavailable; retry later", retryAfterSeconds: seconds)
        }
    }

    /// 503 while a dependency does not answer.
    public static func unavailable(_ message: String, retryAfterSeconds: Int = 1) -> APIError {
        APIError(status: 503, code: .unavailable, message: message, headers: ["Retry-After": String(retryAfterSeconds)])
    }
}
