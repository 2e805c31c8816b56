import API
import Crypto
import Foundation
import Redis
import Testing
import TestSupport

/// GCRA on Redis: bursts, refill, independent keys, a budget shared by instances, and the failure policies.
@Suite struct RateLimiterTests {
    private func limiter(url: String? = nil, lookupPepper: [UInt8]? = nil) throws -> RateLimiter {
        let configuration = try RedisConfiguration(url: url ?? TestEnvironment.redisURL(), poolSize: 2,
                                                   connectTimeout: 0.3, commandTimeout: 0.3)
        return RateLimiter(redis: RedisPool(configuration: configuration), lookupPepper: lookupPepper)
    }

    private func uniqueName() -> String { "test\(UInt32.random(in: 0...UInt32.max))" }

    @Test func aBurstPassesAndTheNextRequestIsLimitedWithRetryAfter() throws {
        let limit = RateLimit.perWindow(name: uniqueName(), count: 5, seconds: 60, onFailure: .closed)
        let limiter = try limiter()
        let decisions = (0..<6).map { _ in limiter.check(limit, key: "203.0.113.9") }
        #expect(decisions.prefix(5) == [.allowed(remaining: 4), .allowed(remaining: 3), .allowed(remaining: 2),
                                        .allowed(remaining: 1), .allowed(remaining: 0)])
        guard case .limited(let retryAfter) = decisions[5] else {
            Issue.record("expected .limited, got \(decisions[5])")
            return
        }
        #expect((11...12).contains(retryAfter))
        #expect(APIError.refusal(for: decisions[5])
            == APIError(status: 429, code: .rateLimited, message: "too many requests; retry after \(retryAfter) s",
                        headers: ["Retry-After": String(retryAfter)]))
    }

    @Test func twoHundredRequestsFitABurstOf200AndThe201stIsRefused() throws {
        // A slow refill (one request per 100 s), so the time the 200 requests take does not add budget.
        let limit = RateLimit(name: uniqueName(), perSecond: 0.01, burst: 200,
                              onFailure: .openWithCap(perProcessPerSecond: 50))
        let limiter = try limiter()
        var allowed = 0
        for _ in 0..<200 { if case .allowed = limiter.check(limit, key: "sk_live_abc") { allowed += 1 } }
        #expect(allowed == 200)
        guard case .limited(let retryAfter) = limiter.check(limit, key: "sk_live_abc") else {
            Issue.record("the 201st request was not limited")
            return
        }
        #expect((99...100).contains(retryAfter))
    }

    @Test func theBudgetRefillsAtTheConfiguredRate() throws {
        let limit = RateLimit(name: uniqueName(), perSecond: 20, burst: 1, onFailure: .closed)
        let limiter = try limiter()
        #expect(limiter.check(limit, key: "k") == .allowed(remaining: 0))
        #expect(limiter.check(limit, key: "k") == .limited(retryAfterSeconds: 1))
        usleep(60_000)
        #expect(limiter.check(limit, key: "k") == .allowed(remaining: 0))
    }

    @Test func aGatedCheckCountsOnlyWhileTheGateHasRoomAndAGateRefusalTakesNothing() throws {
        let gate = RateLimit.perWindow(name: uniqueName(), count: 2, seconds: 60, onFailure: .closed)
        let limit = RateLimit.perWindow(name: uniqueName(), count: 5, seconds: 60, onFailure: .closed)
        let limiter = try limiter()
        // The gate is only looked at: two gated checks count against the key's budget, never the gate's.
        #expect(limiter.check(limit, key: "sk_a", gate: gate, gateKey: "203.0.113.30") == .allowed(remaining: 4))
        #expect(limiter.check(limit, key: "sk_a", gate: gate, gateKey: "203.0.113.30") == .allowed(remaining: 3))
        #expect(limiter.check(gate, key: "203.0.113.30") == .allowed(remaining: 1))
        #expect(limiter.check(gate, key: "203.0.113.30") == .allowed(remaining: 0))
        // Gate spent: refused with the gate's retry time (one unit per 30 s), the key's budget untouched, and a
        // fresh instance (no memory of it) refuses the same way through Redis.
        guard case .limited(let retry) = try self.limiter().check(limit, key: "sk_a", gate: gate,
                                                                  gateKey: "203.0.113.30") else {
            Issue.record("a spent gate did not refuse")
            return
        }
        #expect((29...30).contains(retry))
        #expect(limiter.check(limit, key: "sk_a", gate: gate, gateKey: "203.0.113.31") == .allowed(remaining: 2))
        // The key's own budget refuses as a plain check would, and the gate keeps its room for other clients.
        for expected in [1, 0] {
            #expect(limiter.check(limit, key: "sk_a", gate: gate, gateKey: "203.0.113.31")
                == .allowed(remaining: expected))
        }
        guard case .limited(let keyRetry) = limiter.check(limit, key: "sk_a", gate: gate, gateKey: "203.0.113.31")
        else {
            Issue.record("a spent key budget did not refuse")
            return
        }
        #expect((11...12).contains(keyRetry))
    }

    @Test func theResolveCheckCountsTheClientThenRefusesAMarkedIPOnlyWhileTheFailedLookupBudgetIsSpent() throws {
        let limit = RateLimit.perWindow(name: uniqueName(), count: 3, seconds: 60, onFailure: .closed)
        let budget = FailedLookupBudget(name: uniqueName(), failures: 1, windowSeconds: 60, rememberSeconds: 60)
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 1))
        let limiter = try limiter()
        // Not marked: only the client's limit counts, whatever the failed-lookup budget holds.
        #expect(limiter.check(limit, key: "203.0.113.40", failedLookups: budget, ipHash: "h40") == .allowed(remaining: 2))
        #expect(budget.recordFailure(ipHash: "h40", redis: redis))   // spends the budget and marks h40
        // Marked while the budget is spent: 429 with the budget's retry time (one failure per 60 s), the client's unit
        // taken as the two checks one after the other took it, and not remembered (a clean IP of the same client key
        // passes at once).
        guard case .limited(let retry) = limiter.check(limit, key: "203.0.113.40", failedLookups: budget,
                                                       ipHash: "h40") else {
            Issue.record("a marked IP was not refused while the budget was spent")
            return
        }
        #expect((59...60).contains(retry))
        #expect(limiter.rememberedRetryAfter(limit, key: "203.0.113.40") == nil)
        #expect(budget.check(ipHash: "h40", redis: redis) == .limited(retryAfterSeconds: retry))
        #expect(limiter.check(limit, key: "203.0.113.40", failedLookups: budget, ipHash: "h41") == .allowed(remaining: 0))
        // The client's own limit refuses first, and that refusal is remembered.
        guard case .limited(let limitRetry) = limiter.check(limit, key: "203.0.113.40", failedLookups: budget,
                                                            ipHash: "h41") else {
            Issue.record("a spent client limit did not refuse")
            return
        }
        #expect((19...20).contains(limitRetry))
        #expect(limiter.rememberedRetryAfter(limit, key: "203.0.113.40") != nil)
    }

    @Test func whenRedisIsDownTheResolveCheckFailsClosedEvenForAnOpenLimit() throws {
        let scratch = try ScratchRedis()
        let limiter = try limiter(url: scratch.url)
        let budget = FailedLookupBudget(name: uniqueName(), failures: 5, windowSeconds: 60, rememberSeconds: 60)
        let closed = RateLimit.perWindow(name: uniqueName(), count: 10, seconds: 60, onFailure: .closed)
        let open = RateLimit(name: uniqueName(), perSecond: 100, burst: 200, onFailure: .openWithCap(perProcessPerSecond: 3))
        #expect(limiter.check(closed, key: "ip", failedLookups: budget, ipHash: "h") == .allowed(remaining: 9))
        scratch.pause()
        defer { scratch.resume() }
        #expect(limiter.check(closed, key: "ip", failedLookups: budget, ipHash: "h") == .unavailable(retryAfterSeconds: 5))
        #expect(limiter.check(open, key: "ip", failedLookups: budget, ipHash: "h") == .unavailable(retryAfterSeconds: 5))
    }

    @Test func keysHaveTheirOwnBudgetsAndInstancesShareOne() throws {
        let limit = RateLimit.perWindow(name: uniqueName(), count: 2, seconds: 60, onFailure: .closed)
        let first = try limiter()
        let second = try limiter()
        #expect(first.check(limit, key: "198.51.100.1") == .allowed(remaining: 1))
        #expect(second.check(limit, key: "198.51.100.1") == .allowed(remaining: 0))
        #expect(first.check(limit, key: "198.51.100.1") != .allowed(remaining: 0))
        #expect(second.check(limit, key: "198.51.100.2") == .allowed(remaining: 1))
    }

    @Test func clientIPsAreNotStoredInClearInRedis() throws {
        let name = uniqueName()
        let limit = RateLimit.perWindow(name: name, count: 2, seconds: 60, onFailure: .closed)
        _ = try limiter().check(limit, key: "192.0.2.77")
        let pool = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL()))
        let keys = try pool.command(["KEYS", "rl:\(name):*"])
        guard case .array(let items) = keys else {
            Issue.record("KEYS answered \(keys)")
            return
        }
        #expect(items.count == 1)
        #expect(items.allSatisfy { !($0.string ?? "").contains("192.0.2.77") })
    }

    @Test func withThePepperNoRedisKeyIsThePlainSHA256OfTheIPAndInstancesStillShareABudget() throws {
        let name = uniqueName()
        let limit = RateLimit.perWindow(name: name, count: 1, seconds: 60, onFailure: .closed)
        let pepper = Array(repeating: UInt8(0x5a), count: 32)
        let first = try limiter(lookupPepper: pepper)
        let second = try limiter(lookupPepper: pepper)
        let ip = "192.0.2.78"
        #expect(first.check(limit, key: ip) == .allowed(remaining: 0))
        guard case .limited = second.check(limit, key: ip) else {
            Issue.record("an instance with the same pepper did not share the budget")
            return
        }
        let pool = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL()))
        guard case .array(let items) = try pool.command(["KEYS", "rl:\(name):*"]) else {
            Issue.record("KEYS did not answer an array")
            return
        }
        let plain = Hex.encode(SHA256.hash(ip))
        #expect(items.count == 1)
        for item in items {
            let key = item.string ?? ""
            let digest = String(key.dropFirst("rl:\(name):".count))
            #expect(digest.count == 32 && !plain.hasPrefix(digest) && !key.contains(ip), "\(key)")
        }
        // Without the pepper (identity secrets unset) the key is the documented plain SHA-256 fallback.
        let unkeyed = uniqueName()
        let fallback = RateLimit.perWindow(name: unkeyed, count: 1, seconds: 60, onFailure: .closed)
        _ = try limiter().check(fallback, key: ip)
        let keys = try pool.command(["KEYS", "rl:\(unkeyed):*"]).elements?.compactMap(\.string)
        #expect(keys == ["rl:\(unkeyed):" + String(plain.prefix(32))])
    }

    @Test func whenRedisIsDownAClosedLimitAnswersUnavailable() throws {
        let redis = try ScratchRedis()
        let limiter = try limiter(url: redis.url)
        let limit = RateLimit.perWindow(name: uniqueName(), count: 10, seconds: 60, onFailure: .closed)
        #expect(limiter.check(limit, key: "ip") == .allowed(remaining: 9))
        redis.pause()
        defer { redis.resume() }
        #expect(limiter.check(limit, key: "ip") == .unavailable(retryAfterSeconds: 5))
        #expect(APIError.refusal(for: .unavailable(retryAfterSeconds: 5))?.status == 503)
    }

    @Test func whenRedisIsDownAnOpenLimitPassesUpToThePerProcessCap() throws {
        let redis = try ScratchRedis()
        let limiter = try limiter(url: redis.url)
        let limit = RateLimit(name: uniqueName(), perSecond: 100, burst: 200,
                              onFailure: .openWithCap(perProcessPerSecond: 3))
        redis.pause()
        defer { redis.resume() }
        // The first check waits for the command timeout and opens the backoff; later ones do not ask Redis.
        #expect(limiter.check(limit, key: "sk") != .unavailable(retryAfterSeconds: 5))
        // Start at a fresh wall-clock second so the cap's window does not roll over mid-test.
        let now = Date().timeIntervalSince1970
        usleep(useconds_t((1 - (now - now.rounded(.down))) * 1_000_000) + 10_000)
        let started = Date()
        var allowed = 0
        var limited = 0
        for _ in 0..<5 {
            switch limiter.check(limit, key: "sk") {
            case .allowed: allowed += 1
            case .limited: limited += 1
            case .unavailable: Issue.record("an open limit must not answer unavailable")
            }
        }
        #expect(Date().timeIntervalSince(started) < 0.5, "checks during the backoff must not wait for Redis")
        #expect(allowed == 3)
        #expect(limited == 2)
    }
}
