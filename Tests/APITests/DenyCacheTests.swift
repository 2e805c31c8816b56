import API
import Foundation
import Redis
import Synchronization
import Testing
import TestSupport

/// The local deny cache (issue 17 §3): a limited key is refused from memory until its retry time, allowed requests
/// still go through Redis, and two instances sharing one Redis still allow exactly the shared budget.
@Suite struct DenyCacheTests {
    private func limiter(url: String? = nil) throws -> RateLimiter {
        let configuration = try RedisConfiguration(url: url ?? TestEnvironment.redisURL(), poolSize: 4,
                                                   connectTimeout: 0.3, commandTimeout: 0.3)
        return RateLimiter(redis: RedisPool(configuration: configuration))
    }

    private func uniqueName() -> String { "deny\(UInt32.random(in: 0...UInt32.max))" }

    @Test func anEntryLastsUntilItsDeadlineAndRoundsUpToWholeSeconds() {
        let cache = DenyCache()
        cache.deny("k", forMicroseconds: 1_500_000, askedAt: 1_000)
        #expect(cache.retryAfterSeconds("k", now: 1_000) == 2)
        #expect(cache.retryAfterSeconds("k", now: 1_000 + 600_000_000) == 1)
        #expect(cache.retryAfterSeconds("k", now: 1_000 + 1_499_999_999) == 1)
        #expect(cache.retryAfterSeconds("k", now: 1_000 + 1_500_000_000) == nil)
        #expect(cache.count == 0)
        #expect(cache.retryAfterSeconds("other", now: 1_000) == nil)
    }

    @Test func aFullCacheDropsExpiredEntriesAndOtherwiseRemembersNothingNew() {
        let cache = DenyCache(capacity: 2)
        cache.deny("a", forMicroseconds: 10, askedAt: 0)
        cache.deny("b", forMicroseconds: 1_000_000, askedAt: 0)
        cache.deny("c", forMicroseconds: 1_000_000, askedAt: 1_000_000)
        #expect(cache.retryAfterSeconds("c", now: 1_000_000) == 1)
        #expect(cache.retryAfterSeconds("a", now: 1_000_000) == nil)
        cache.deny("d", forMicroseconds: 1_000_000, askedAt: 2_000_000)
        #expect(cache.retryAfterSeconds("d", now: 2_000_000) == nil)
        #expect(cache.count == 2)
    }

    @Test func aLimitedKeyIsRefusedFromMemoryWhileRedisCannotBeAsked() throws {
        let redis = try ScratchRedis()
        let limiter = try limiter(url: redis.url)
        let limit = RateLimit.perWindow(name: uniqueName(), count: 1, seconds: 60, onFailure: .closed)
        #expect(limiter.check(limit, key: "203.0.113.5") == .allowed(remaining: 0))
        guard case .limited(let first) = limiter.check(limit, key: "203.0.113.5") else {
            Issue.record("the second request was not limited")
            return
        }
        redis.pause()
        defer { redis.resume() }
        // Redis does not answer: the limited address gets its 429 from memory, any other address the 503 of a closed
        // limit, so the 429 cannot have come from Redis.
        guard case .limited(let again) = limiter.check(limit, key: "203.0.113.5") else {
            Issue.record("the limited address was not refused from memory")
            return
        }
        #expect(again <= first && again >= first - 1)
        #expect(limiter.peek(limit, key: "203.0.113.5") == .limited(retryAfterSeconds: again))
        #expect(limiter.check(limit, key: "203.0.113.6") == .unavailable(retryAfterSeconds: 5))
    }

    @Test func twoInstancesShareOneLimitExactlyUnderConcurrentLoad() throws {
        // A slow refill (one request per 100 s): 8 threads on two instances send 400 requests, exactly 10 pass.
        let limit = RateLimit(name: uniqueName(), perSecond: 0.01, burst: 10, onFailure: .closed)
        let instances = [try limiter(), try limiter()]
        let allowed = Atomic<Int>(0)
        let limited = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<50 {
                switch instances[thread % 2].check(limit, key: "198.51.100.20") {
                case .allowed: allowed.add(1, ordering: .relaxed)
                case .limited(let seconds) where (99...100).contains(seconds): limited.add(1, ordering: .relaxed)
                default: break
                }
            }
        }
        #expect(allowed.load(ordering: .relaxed) == 10)
        #expect(limited.load(ordering: .relaxed) == 390)
        #expect(instances.allSatisfy { $0.rememberedRetryAfter(limit, key: "198.51.100.20") != nil })
    }

    @Test func memoryNeverRefusesLongerThanRedisSoAnotherInstancesRefillIsUsedAtOnce() throws {
        // One request per 200 ms. A is limited and remembers it; when the budget refills, A's memory has already
        // expired, so A's next request reaches Redis: exactly one of A and B gets each refilled unit.
        let limit = RateLimit(name: uniqueName(), perSecond: 5, burst: 1, onFailure: .closed)
        let first = try limiter()
        let second = try limiter()
        let key = "192.0.2.44"
        #expect(first.check(limit, key: key) == .allowed(remaining: 0))
        #expect(first.check(limit, key: key) == .limited(retryAfterSeconds: 1))
        #expect(second.check(limit, key: key) == .limited(retryAfterSeconds: 1))
        usleep(230_000)
        #expect(first.check(limit, key: key) == .allowed(remaining: 0))
        #expect(second.check(limit, key: key) == .limited(retryAfterSeconds: 1))
        usleep(230_000)
        #expect(second.check(limit, key: key) == .allowed(remaining: 0))
        #expect(first.check(limit, key: key) == .limited(retryAfterSeconds: 1))
    }
}
