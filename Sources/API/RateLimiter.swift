import Crypto
import Foundation
import Redis
import Synchronization
import Telemetry

/// Checks rate limits with GCRA in one atomic Lua script on Redis (`GCRA.script`), using Redis' own clock (`TIME`),
/// so every API instance shares one budget per key and clock skew between instances does not matter.
///
/// Keys are hashed before they reach Redis, so client IPs and key prefixes are not stored in clear: with the lookup
/// pepper (`HANDOFF_LOOKUP_PEPPER`, which every API instance shares) as HMAC-SHA256 under a key derived from it
/// (`HMAC(pepper, "handoff/rate-limit/v1")`), so an IPv4 address cannot be found by hashing all 2^32 of them;
/// without the pepper (identity secrets unset) as plain SHA-256, which only hides the key from a casual reader.
/// When Redis fails, the limit's `FailurePolicy` decides: fail closed (503) or fail open up to a per-process cap.
/// After a failure Redis is not asked again for `backoff` seconds, so an outage does not add a command timeout
/// to every request.
///
/// Once Redis has answered "limited" for a key, this process refuses that key from its `DenyCache` until the answer's
/// retry time, without asking Redis (issue 17 §3): a flood of refused requests costs no Redis round trip, and the
/// refusal is exactly the one Redis would give (see `DenyCache`). Allowed requests always go to Redis.
public final class RateLimiter: Sendable {
    private let redis: RedisPool
    /// Keys Redis limited, refused from memory until their retry time.
    public let denied: DenyCache
    private let backoff: Double
    private let localCaps = Mutex<[String: (second: Int, count: Int)]>([:])
    /// Until when (seconds since 1970) Redis is taken to be down.
    private let redisDownUntil = Mutex<Double>(0)

    /// The HMAC key of Redis keys; nil hashes them with plain SHA-256.
    private let keyingKey: [UInt8]?

    /// `lookupPepper` keys the hashes of rate-limit keys (see the type's comment); nil falls back to SHA-256.
    /// `denyCapacity` bounds the keys remembered as limited (`DenyCache`).
    public init(redis: RedisPool, backoff: Double = 2, lookupPepper: [UInt8]? = nil, denyCapacity: Int = 10_000) {
        self.redis = redis
        self.denied = DenyCache(capacity: denyCapacity)
        self.backoff = backoff
        self.keyingKey = lookupPepper.map { HMAC.sha256(key: $0, message: Array("handoff/rate-limit/v1".utf8)) }
    }

    /// The Redis key of `key` under `limit`: `rl:<name>:` and 32 hex digits of its keyed (or plain) hash.
    func redisKey(_ limit: RateLimit, key: String) -> String {
        let digest = keyingKey.map { HMAC.sha256(key: $0, message: Array(key.utf8)) } ?? SHA256.hash(key)
        return "rl:\(limit.name):" + Hex.encode(Array(digest.prefix(16)))
    }

    /// Counts one request of `key` (a client IP, a secret key's prefix) against `limit`.
    ///
    /// A key this process saw limited is refused from memory until its retry time (`denied`), counting nothing, as
    /// Redis would.
    public func check(_ limit: RateLimit, key: String) -> RateLimitDecision {
        let cacheKey = Self.cacheKey(limit, key: key)
        let askedAt = DenyCache.now()
        if let seconds = denied.retryAfterSeconds(cacheKey, now: askedAt) {
            return .limited(retryAfterSeconds: seconds)
        }
        let emission = Self.emission(of: limit)
        let redisKey = redisKey(limit, key: key)
        let now = Date().timeIntervalSince1970
        if redisDownUntil.withLock({ $0 }) > now { return failed(limit) }
        do {
            let asked = StageTimings.now()
            let reply = try GCRA.evaluate(
                .take, budget: redisKey, emissionMicroseconds: emission, burst: limit.burst, on: redis)
            StageTimings.shared.record(.redis, since: asked)
            guard let answer = GCRA.Answer(reply) else { return failed(limit) }
            if answer.allowed { return .allowed(remaining: answer.remaining) }
            denied.deny(cacheKey, forMicroseconds: answer.retryAfterMicroseconds, askedAt: askedAt)
            return .limited(retryAfterSeconds: answer.retryAfterSeconds)
        } catch {
            redisDownUntil.withLock { $0 = Date().timeIntervalSince1970 + backoff }
            return failed(limit)
        }
    }

    /// Counts one request of `key` against `limit` unless `gateKey` is over `gate` (which is only looked at, as
    /// `peek` does): both asked in one Redis round trip (`GCRA.gatedScript`). A gate refusal answers the gate's
    /// retry time. Either key remembered as limited is refused from memory (`denied`); without Redis, `limit`'s
    /// failure policy applies (a gate that cannot be looked at refuses nobody, as `peek`).
    public func check(_ limit: RateLimit, key: String, gate: RateLimit, gateKey: String) -> RateLimitDecision {
        let cacheKey = Self.cacheKey(limit, key: key)
        let gateCacheKey = Self.cacheKey(gate, key: gateKey)
        let askedAt = DenyCache.now()
        for remembered in [gateCacheKey, cacheKey] {
            if let seconds = denied.retryAfterSeconds(remembered, now: askedAt) {
                return .limited(retryAfterSeconds: seconds)
            }
        }
        if redisDownUntil.withLock({ $0 }) > Date().timeIntervalSince1970 { return failed(limit) }
        let arguments = [gate, limit].flatMap { [String(Self.emission(of: $0)), String($0.burst)] }
        do {
            let asked = StageTimings.now()
            let reply = try redis.evaluate(GCRA.gatedScript, keys: [redisKey(gate, key: gateKey),
                                                                   redisKey(limit, key: key)], arguments: arguments)
            StageTimings.shared.record(.redis, since: asked)
            guard let answer = GCRA.Answer(reply) else { return failed(limit) }
            if answer.allowed { return .allowed(remaining: answer.remaining) }
            denied.deny(answer.gated ? gateCacheKey : cacheKey, forMicroseconds: answer.retryAfterMicroseconds,
                        askedAt: askedAt)
            return .limited(retryAfterSeconds: answer.retryAfterSeconds)
        } catch {
            redisDownUntil.withLock { $0 = Date().timeIntervalSince1970 + backoff }
            return failed(limit)
        }
    }

    /// Counts one request of `key` against `limit` and, when it fits, asks `failedLookups.check(ipHash:)`'s question
    /// too — both in one Redis round trip (`GCRA.takeThenPeekMarkedScript`), with the answers the two calls give
    /// one after the other: `key` remembered as limited is refused from memory; a refusal by `limit` is remembered
    /// (`denied`), one by the failed-lookup budget is not (it lifts as soon as the budget refills or the mark
    /// expires); without Redis, `limit`'s failure policy applies and the failed-lookup budget fails closed.
    public func check(_ limit: RateLimit, key: String, failedLookups budget: FailedLookupBudget, ipHash: String)
        -> RateLimitDecision
    {
        let cacheKey = Self.cacheKey(limit, key: key)
        let askedAt = DenyCache.now()
        if let seconds = denied.retryAfterSeconds(cacheKey, now: askedAt) {
            return .limited(retryAfterSeconds: seconds)
        }
        if redisDownUntil.withLock({ $0 }) > Date().timeIntervalSince1970 { return failedWithBudget(limit) }
        let arguments = [String(Self.emission(of: limit)), String(limit.burst),
                         String(budget.emissionMicroseconds), String(budget.failures)]
        do {
            let asked = StageTimings.now()
            let reply = try redis.evaluate(
                GCRA.takeThenPeekMarkedScript,
                keys: [redisKey(limit, key: key), budget.budgetKey, budget.markKey(ipHash)], arguments: arguments)
            StageTimings.shared.record(.redis, since: asked)
            guard let answer = GCRA.Answer(reply) else { return failedWithBudget(limit) }
            if answer.allowed { return .allowed(remaining: answer.remaining) }
            if !answer.gated {
                denied.deny(cacheKey, forMicroseconds: answer.retryAfterMicroseconds, askedAt: askedAt)
            }
            return .limited(retryAfterSeconds: answer.retryAfterSeconds)
        } catch {
            redisDownUntil.withLock { $0 = Date().timeIntervalSince1970 + backoff }
            return failedWithBudget(limit)
        }
    }

    /// Redis could not decide `check(_:key:failedLookups:ipHash:)`: `limit`'s policy, and a failed-lookup budget that
    /// cannot be looked at refuses (`FailedLookupBudget.check` fails closed).
    private func failedWithBudget(_ limit: RateLimit) -> RateLimitDecision {
        let decision = failed(limit)
        if case .allowed = decision { return .unavailable(retryAfterSeconds: 5) }
        return decision
    }

    /// Whether one more request of `key` would fit `limit`, counting nothing: `.limited` once the budget is spent.
    /// Without Redis it answers `.allowed` (a look that cannot be made refuses nobody; the counting `check` applies the
    /// limit's failure policy).
    ///
    /// A key this process saw limited is answered from memory (`denied`).
    public func peek(_ limit: RateLimit, key: String) -> RateLimitDecision {
        let cacheKey = Self.cacheKey(limit, key: key)
        let askedAt = DenyCache.now()
        if let seconds = denied.retryAfterSeconds(cacheKey, now: askedAt) {
            return .limited(retryAfterSeconds: seconds)
        }
        let emission = Self.emission(of: limit)
        if redisDownUntil.withLock({ $0 }) > Date().timeIntervalSince1970 { return .allowed(remaining: 0) }
        guard let reply = try? GCRA.evaluate(.peek, budget: redisKey(limit, key: key), emissionMicroseconds: emission,
                                             burst: limit.burst, on: redis),
              let answer = GCRA.Answer(reply), !answer.allowed else { return .allowed(remaining: 0) }
        denied.deny(cacheKey, forMicroseconds: answer.retryAfterMicroseconds, askedAt: askedAt)
        return .limited(retryAfterSeconds: answer.retryAfterSeconds)
    }

    /// The seconds until this process asks Redis about `key` under `limit` again, or nil when it is not remembered as
    /// limited (for tests and diagnostics).
    public func rememberedRetryAfter(_ limit: RateLimit, key: String) -> Int? {
        denied.retryAfterSeconds(Self.cacheKey(limit, key: key))
    }

    /// One unit's emission interval of `limit` in microseconds.
    private static func emission(of limit: RateLimit) -> Int { max(1, Int((1_000_000 / limit.perSecond).rounded())) }

    /// The deny cache's key of `key` under `limit` (a NUL cannot occur in a limit's name).
    private static func cacheKey(_ limit: RateLimit, key: String) -> String { limit.name + "\u{0}" + key }

    /// Redis could not decide: fail closed, or open up to the per-process cap (counted per wall-clock second).
    private func failed(_ limit: RateLimit) -> RateLimitDecision {
        switch limit.onFailure {
        case .closed:
            return .unavailable(retryAfterSeconds: 5)
        case .openWithCap(let cap):
            let second = Int(Date().timeIntervalSince1970)
            return localCaps.withLock { caps in
                var entry = caps[limit.name] ?? (second, 0)
                if entry.second != second { entry = (second, 0) }
                entry.count += 1
                caps[limit.name] = entry
                return entry.count <= cap ? .allowed(remaining: cap - entry.count) : .limited(retryAfterSeconds: 1)
            }
        }
    }
}
