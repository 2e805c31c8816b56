import Foundation

/// Why a Handoff call did not give an answer the app can use. Branch on the case; nothing here holds personal data.
public enum Web2AppError: Error, Sendable, Equatable {
    /// `Web2App.configure(projectId:baseURL:)` was not called.
    case notConfigured
    /// The call needs the buyer's guid and none was found yet (`identify` first).
    case notIdentified
    /// Too many requests from this device's address: try again after `retryAfter` seconds (the server's
    /// `Retry-After`, already waited for as long as the `RetryPolicy` allows).
    case rateLimited(retryAfter: TimeInterval)
    /// The server cannot answer now (503: its database or Redis is down, or it has no identity secrets); try again
    /// after `retryAfter` seconds when given.
    case serverUnavailable(retryAfter: TimeInterval?)
    /// The server refused the app's bundle id as malformed (400 `VALIDATION_BUNDLE_ID_FORMAT`): a build setting to
    /// fix, not something the buyer can change.
    case misconfiguredBundleId
    /// The server refused the request's form (400/413) with this machine code, e.g. `VALIDATION_EMAIL_FORMAT`.
    case invalidRequest(code: String?)
    /// No HTTP answer: the network failed, or the request's timeout passed.
    case network(timedOut: Bool)
    /// An answer the library does not expect (a 5xx other than 503, or a body it cannot read).
    case unexpectedAnswer(status: Int)

    /// The error an answer that is not a success means.
    static func from(_ answer: ServerAnswer) -> Web2AppError {
        switch answer.status {
        case 429: return .rateLimited(retryAfter: answer.retryAfter ?? 60)
        case 503: return .serverUnavailable(retryAfter: answer.retryAfter)
        case 400 where answer.machineCode == "VALIDATION_BUNDLE_ID_FORMAT": return .misconfiguredBundleId
        case 400, 413: return .invalidRequest(code: answer.machineCode)
        default: return .unexpectedAnswer(status: answer.status)
        }
    }

    static func from(_ failure: TransportFailure) -> Web2AppError {
        .network(timedOut: failure.timedOut)
    }
}
