import Foundation

/// How the library waits and tries again when the server answers 429 or 503.
///
/// Only those two statuses are retried: they mean nothing was done. A 404 is an answer, and a request that failed on
/// the network is not repeated (the resolve call spends its code, so a repeat could lose the answer).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (1 = never retry).
    public var maxAttempts: Int
    /// The wait before the second attempt when the answer has no `Retry-After`; doubled for each further attempt.
    public var baseDelay: TimeInterval
    /// The longest the library waits before one attempt; a longer `Retry-After` ends the retries and is reported to
    /// the caller (e.g. `IdentifyError.rateLimited(retryAfter:)`) instead of holding it.
    public var maxDelay: TimeInterval

    /// A policy; the defaults try three times and wait at most 10 seconds at a time.
    public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 10) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// No retries: the first 429 or 503 is reported at once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt + 1` after attempt `attempt` (1-based) was answered 429/503 with
    /// `retryAfter`, or nil when the library should stop and report.
    func delay(after attempt: Int, retryAfter: TimeInterval?) -> TimeInterval? {
        guard attempt < maxAttempts else { return nil }
        let backoff = baseDelay * pow(2, Double(attempt - 1))
        let wait = retryAfter.map { max($0, 0) } ?? backoff
        return wait <= maxDelay ? wait : nil
    }
}
