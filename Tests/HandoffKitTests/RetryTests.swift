import Foundation
@testable import HandoffKit
import Testing
import TestSupport

/// 429 handling: the server's `Retry-After` is reported when it is longer than the policy waits, and waited for
/// (then the request succeeds) when it is not (issue 22).
@Suite struct RetryTests {
    @Test func aRateLimitedResolveReportsRetryAfterOrWaitsItOutAndSucceeds() async throws {
        let server = try await HandoffServer.start()
        let paid = try server.pay(guid: "usr:77", paymentId: "pi_retry")
        let code = try #require((paid["handoff"] as? [String: Any])?["code"] as? String)

        // Spend the address's 10 resolves a minute (a burst of 10, one more every 6 s) on codes nobody has, until
        // the server refuses; a client without retries reports the 429's Retry-After.
        let alphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
        var misses = 0
        var limited: TimeInterval?
        while limited == nil && misses < 40 {
            let miss = "ZZZZZZ" + String(alphabet[misses / 32]) + String(alphabet[misses % 32])
            switch await KitClients.web2App(server).identify(deepLinkValue: miss) {
            case .needsEmailFallback: misses += 1
            case .failed(.rateLimited(let retryAfter)): limited = retryAfter
            case let other:
                Issue.record("a miss answered \(other)")
                return
            }
        }
        #expect(misses >= 10)
        let retryAfter = try #require(limited)
        #expect(retryAfter >= 1 && retryAfter <= 10)
        // Refused at once: the real code is not spent, nothing is kept.
        let impatient = KitClients.web2App(server)
        let refused = await impatient.identify(deepLinkValue: code)
        guard case .failed(.rateLimited) = refused else {
            Issue.record("expected rateLimited, got \(refused)")
            return
        }
        #expect(impatient.guid == nil)

        // A policy that waits up to 15 s honours Retry-After, then the same code resolves.
        let log = LogLines()
        let patient = KitClients.web2App(server, retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.1, maxDelay: 15),
                                         log: log)
        let started = Date()
        #expect(await patient.identify(deepLinkValue: code) == .identified("usr:77", via: .code))
        #expect(Date().timeIntervalSince(started) >= retryAfter - 1)
        #expect(log.all.first == "GET /public/handoff/resolve -> 429 (attempt 1)")
        #expect(log.all.last?.hasPrefix("GET /public/handoff/resolve -> 200") == true)
        #expect(!log.all.contains { $0.contains(code) || $0.contains("usr:77") })
    }

    @Test func theRetryPolicyWaitsRetryAfterOrBacksOffAndStopsAtItsLimits() {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0.5, maxDelay: 10)
        #expect(policy.delay(after: 1, retryAfter: 6) == 6)
        #expect(policy.delay(after: 1, retryAfter: nil) == 0.5)
        #expect(policy.delay(after: 2, retryAfter: nil) == 1)
        #expect(policy.delay(after: 3, retryAfter: 1) == nil)
        #expect(policy.delay(after: 1, retryAfter: 11) == nil)
        #expect(RetryPolicy.never.delay(after: 1, retryAfter: 0) == nil)
    }
}
