import API
import Foundation
import Testing
import TestSupport

/// The per-key budget on `/s2s/*`.
@Suite struct SecretKeyRateLimitTests {
    @Test func aKeyOverItsBudgetGets429WithRetryAfterAndAnotherKeyIsUnaffected() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let limit = RateLimit(name: "s2s-test-\(UInt32.random(in: 0...UInt32.max))", perSecond: 0.1, burst: 3,
                              onFailure: .openWithCap(perProcessPerSecond: 3))
        let api = try fixture.responder(s2sLimit: limit)
        let statuses = (0..<5).map { _ in api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: a.key)).status }
        #expect(statuses == [200, 200, 200, 429, 429])
        let limited = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: a.key))
        #expect(limited.headers["Retry-After"] == "10")
        #expect(bodyText(limited)
            == #"{"statusCode":429,"code":"RATE_LIMITED","message":"too many requests; retry after 10 s"}"#)
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: b.key)).status == 200)
    }

    @Test func twentyFailedKeyChecksFromOneAddressThenEveryRequestFromItGets429BeforeAnyLookup() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let failures = RateLimit.perWindow(name: "auth-test-\(UInt32.random(in: 0...UInt32.max))", count: 20,
                                           seconds: 60, onFailure: .openWithCap(perProcessPerSecond: 1000))
        let api = try fixture.responder(authFailureLimit: failures)
        let guessing = (0..<25).map { _ in
            api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: SecretKeyText.fresh())).status
        }
        #expect(guessing == Array(repeating: 401, count: 20) + Array(repeating: 429, count: 5))
        // Over the budget even a live key is not looked at: a guess that happens to be right learns nothing.
        let limited = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        // One failure refills every 3 s: Retry-After is what is left of that (whole seconds, rounded up).
        let retryAfter = try #require(limited.headers["Retry-After"])
        #expect(limited.status == 429 && ["1", "2", "3"].contains(retryAfter))
        #expect(bodyText(limited) == #"{"statusCode":429,"code":"RATE_LIMITED","message":"too many requests; "#
            + #"retry after \#(retryAfter) s"}"#)
        // Another address is unaffected, and good keys never spend the budget.
        var other = s2sRequest(.get, "/s2s/v1/project", key: tenant.key)
        other.clientIP = "198.51.100.77"
        let fresh = try fixture.responder(authFailureLimit: failures)
        #expect((0..<30).map { _ in fresh.respond(to: other).status }.allSatisfy { $0 == 200 })
    }

    @Test func aClientOverItsFailedCheckBudgetOnAnotherInstanceGets429ForAGoodKeyAndForABadOne() throws {
        // The failed-check budget is looked at in the same Redis round trip as the key's budget, after the lookup:
        // an instance that never saw the client's failures still answers 429, never 200 and never 401.
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let failures = RateLimit.perWindow(name: "auth-test-\(UInt32.random(in: 0...UInt32.max))", count: 3,
                                           seconds: 60, onFailure: .openWithCap(perProcessPerSecond: 1000))
        let guessing = try fixture.responder(authFailureLimit: failures)
        let statuses = (0..<3).map { _ in
            guessing.respond(to: s2sRequest(.get, "/s2s/v1/project", key: SecretKeyText.fresh())).status
        }
        #expect(statuses == [401, 401, 401])
        let other = try fixture.responder(authFailureLimit: failures)
        let good = other.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        #expect(good.status == 429 && good.headers["Retry-After"] != nil, "\(bodyText(good))")
        let bad = try fixture.responder(authFailureLimit: failures)
            .respond(to: s2sRequest(.get, "/s2s/v1/project", key: SecretKeyText.fresh()))
        #expect(bad.status == 429 && bad.headers["Retry-After"] != nil, "\(bodyText(bad))")
        // The refusals took nothing from the key's own budget, and another address still gets through.
        var elsewhere = s2sRequest(.get, "/s2s/v1/project", key: tenant.key)
        elsewhere.clientIP = "198.51.100.78"
        let passed = other.respond(to: elsewhere)
        #expect(passed.status == 200, "\(bodyText(passed))")
    }

    @Test func twoHundredRequestsFitTheBurstAndThe201stIsRefusedWith429() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        // The default burst of 200 with a slow refill, so the time 200 requests take adds no budget.
        let limit = RateLimit(name: "s2s-burst-\(UInt32.random(in: 0...UInt32.max))", perSecond: 0.01, burst: 200,
                              onFailure: .openWithCap(perProcessPerSecond: 200))
        let api = try fixture.responder(s2sLimit: limit)
        let statuses = (0..<200).map { _ in
            api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)).status
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        let over = api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key))
        #expect(over.status == 429)
        // 100 s for one request at 0.01/s, less the whole seconds the 200 requests took on a loaded machine.
        let retryAfter = Int(over.headers["Retry-After"] ?? "") ?? 0
        #expect((95...100).contains(retryAfter))
    }

    @Test func whileRedisIsStoppedS2SRequestsStillPassUpToThePerProcessCap() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let redis = try ScratchRedis()
        let limit = RateLimit(name: "s2s-down-\(UInt32.random(in: 0...UInt32.max))", perSecond: 100, burst: 200,
                              onFailure: .openWithCap(perProcessPerSecond: 1000))
        let api = try fixture.responder(redisURL: redis.url, s2sLimit: limit)
        #expect(api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)).status == 200)
        redis.pause()
        defer { redis.resume() }
        let statuses = (0..<5).map { _ in api.respond(to: s2sRequest(.get, "/s2s/v1/project", key: tenant.key)).status }
        #expect(statuses == [200, 200, 200, 200, 200])
        let patched = api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: tenant.key, body: #"{"name":"Up"}"#))
        #expect(patched.status == 200)
    }

    @Test func theDefaultS2SLimitIs100PerSecondWithBursts200AndFailsOpen() {
        #expect(Environment.defaultS2SLimit.perSecond == 100 && Environment.defaultS2SLimit.burst == 200)
        #expect(Environment.defaultS2SLimit.onFailure == .openWithCap(perProcessPerSecond: 200))
    }
}
