/// A rate limit: `burst` requests at once, refilled at `perSecond`; keyed per client IP or per secret key.
public struct RateLimit: Sendable, Equatable {
    /// What to do when Redis cannot be asked.
    public enum FailurePolicy: Sendable, Equatable {
        /// Refuse with 503 + `Retry-After` (public routes: a stranger must not get unlimited guesses).
        case closed
        /// Let requests through up to `perProcessPerSecond` in this process (server-to-server routes:
        /// a Redis outage must not stop payments being recorded).
        case openWithCap(perProcessPerSecond: Int)
    }

    /// Names the limit in Redis keys and metrics (`resolve`, `s2s`, …).
    public let name: String
    public let perSecond: Double
    public let burst: Int
    public let onFailure: FailurePolicy

    public init(name: String, perSecond: Double, burst: Int, onFailure: FailurePolicy) {
        precondition(perSecond > 0 && burst >= 1, "a rate limit needs a positive rate and a burst of at least 1")
        self.name = name
        self.perSecond = perSecond
        self.burst = burst
        self.onFailure = onFailure
    }

    /// This limit with `factor` times the rate and the burst (`RATE_LIMIT_MULTIPLIER`: load and contract tests
    /// raise every limit at once; production keeps 1). The per-process cap without Redis is scaled too.
    public func scaled(by factor: Int) -> RateLimit {
        let policy: FailurePolicy
        switch onFailure {
        case .closed: policy = .closed
        case .openWithCap(let cap): policy = .openWithCap(perProcessPerSecond: cap * factor)
        }
        return RateLimit(name: name, perSecond: perSecond * Double(factor), burst: burst * factor, onFailure: policy)
    }

    /// `count` requests per `seconds`, all of which may come at once (e.g. 10 per 60 s).
    public static func perWindow(name: String, count: Int, seconds: Double, onFailure: FailurePolicy) -> RateLimit {
        RateLimit(name: name, perSecond: Double(count) / seconds, burst: count, onFailure: onFailure)
    }
}

/// The answer of a limit check.
public enum RateLimitDecision: Sendable, Equatable {
    /// Go ahead; `remaining` more requests would pass right now.
    case allowed(remaining: Int)
    /// Over the limit: 429, try again after this many seconds.
    case limited(retryAfterSeconds: Int)
    /// Redis did not answer and the limit fails closed: 503, try again after this many seconds.
    case unavailable(retryAfterSeconds: Int)
}
