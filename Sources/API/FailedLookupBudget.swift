import Crypto
import Foundation
import Redis

/// Bounds distributed guessing on `GET /public/handoff/resolve`: a global budget of failed lookups (404s) shared by
/// every API instance through Redis, and a short memory of the IPs that failed.
///
/// Each failed lookup takes one unit of a GCRA budget (`failures` per `windowSeconds`, all of which may come at once)
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

    /// KEYS: global budget, IP mark. ARGV: emission µs, burst. Returns {allowed 1|0, retry-after µs}.
    /// Refuses only when the IP is marked and one more failure would not fit the budget.
    static let checkScript = RedisScript(source: """
        if redis.call('EXISTS', KEYS[2]) == 0 then return {1, 0} end
        local emission = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local tat = tonumber(redis.call('GET', KEYS[1]) or now)
        if tat < now then tat = now end
        local over = tat + emission - now - burst * emission
        if over > 0 then return {0, over} end
        return {1, 0}
        """)

    /// KEYS: global budget, IP mark. ARGV: emission µs, burst, remember seconds. Takes one unit when it fits (a
    /// failure over the budget takes nothing, so the budget refills at its rate) and marks the IP.
    static let recordScript = RedisScript(source: """
        local emission = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local tat = tonumber(redis.call('GET', KEYS[1]) or now)
        if tat < now then tat = now end
        local new_tat = tat + emission
        if new_tat - now <= burst * emission then
            redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
        end
        redis.call('SET', KEYS[2], '1', 'EX', tonumber(ARGV[3]))
        return 1
        """)

    /// Whether a lookup from the IP with keyed hash `ipHash` may go ahead: `.limited` only for a recently failed IP
    /// while the global budget is exhausted.
    public func check(ipHash: String, redis: RedisPool) -> RateLimitDecision {
        do {
            let reply = try redis.evaluate(Self.checkScript, keys: keys(ipHash), arguments: arguments)
            guard case .array(let items) = reply, items.count == 2, let allowed = items[0].integerValue,
                  let retryMicroseconds = items[1].integerValue else { return .unavailable(retryAfterSeconds: 5) }
            if allowed == 1 { return .allowed(remaining: 0) }
            return .limited(retryAfterSeconds: max(1, Int((Double(retryMicroseconds) / 1_000_000).rounded(.up))))
        } catch {
            return .unavailable(retryAfterSeconds: 5)
        }
    }

    /// Counts one failed lookup from the IP with keyed hash `ipHash`; false when Redis could not record it.
    @discardableResult
    public func recordFailure(ipHash: String, redis: RedisPool) -> Bool {
        (try? redis.evaluate(Self.recordScript, keys: keys(ipHash),
                             arguments: arguments + [String(rememberSeconds)])) != nil
    }

    private var arguments: [String] {
        [String(max(1, Int((windowSeconds * 1_000_000 / Double(failures)).rounded()))), String(failures)]
    }

    private func keys(_ ipHash: String) -> [String] { ["flb:\(name):global", "flb:\(name):ip:\(ipHash)"] }
}
