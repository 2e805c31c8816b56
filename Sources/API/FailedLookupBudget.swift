import Foundation
import Redis

/// Bounds distributed guessing on `GET /public/handoff/resolve`: a global budget of failed lookups (404s) shared by
/// every API instance through Redis, and a short memory of the IPs that failed.
///
/// Each failed lookup takes one unit of a GCRA budget (`GCRA.script`: `failures` per `windowSeconds`, all at once)
/// and marks its IP for `rememberSeconds`. While the budget is exhausted, an IP that failed recently is refused with
/// 429 before any lookup; a clean IP still passes. IPs reach Redis only as keyed hashes (HMAC with the lookup
/// pepper), never in clear. Redis down → `.unavailable` (the route fails closed).
public struct FailedLookupBudget: Sendable, Equatable {
    /// Names the budget in Redis keys (`flb:<name>:…`).
    public let name: String
    /// Failed lookups the whole deployment may have per window before recently failed IPs are refused.
    public let failures: Int
    public let windowSeconds: Double
    /// How long an IP that failed counts as "recently failed".
    public let rememberSeconds: Int

    public init(name: String, failures: Int, windowSeconds: Double, rememberSeconds: Int) {
        precondition(failures >= 1 && windowSeconds > 0 && rememberSeconds >= 1, "a failed-lookup budget needs ≥ 1")
        self.name = name
        self.failures = failures
        self.windowSeconds = windowSeconds
        self.rememberSeconds = rememberSeconds
    }

    /// Whether a lookup from the IP with keyed hash `ipHash` may go ahead: `.limited` only for a recently failed IP
    /// while the global budget is exhausted (a GCRA peek past the IP's mark).
    public func check(ipHash: String, redis: RedisPool) -> RateLimitDecision {
        do {
            let reply = try GCRA.evaluate(.peek, budget: budgetKey, mark: markKey(ipHash),
                                          emissionMicroseconds: emissionMicroseconds, burst: failures, on: redis)
            guard let answer = GCRA.Answer(reply) else { return .unavailable(retryAfterSeconds: 5) }
            if answer.allowed { return .allowed(remaining: 0) }
            return .limited(retryAfterSeconds: answer.retryAfterSeconds)
        } catch {
            return .unavailable(retryAfterSeconds: 5)
        }
    }

    /// Counts one failed lookup from the IP with keyed hash `ipHash`; false when Redis could not record it.
    ///
    /// Takes one unit of the budget when it fits (a failure over the budget takes nothing, so the budget refills at
    /// its rate) and marks the IP for `rememberSeconds`.
    @discardableResult
    public func recordFailure(ipHash: String, redis: RedisPool) -> Bool {
        (try? GCRA.evaluate(.take, budget: budgetKey, mark: markKey(ipHash), markSeconds: rememberSeconds,
                            emissionMicroseconds: emissionMicroseconds, burst: failures, on: redis)) != nil
    }

    var emissionMicroseconds: Int {
        max(1, Int((windowSeconds * 1_000_000 / Double(failures)).rounded()))
    }

    var budgetKey: String { "flb:\(name):global" }

    func markKey(_ ipHash: String) -> String { "flb:\(name):ip:\(ipHash)" }
}
