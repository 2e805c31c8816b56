import Foundation
@testable import HandoffKit
import Testing
import TestSupport

/// 429 handling: the server's `Retry-After` is reported when it is longer than the policy waits, and waited for
/// (then the request succeeds) when it is not (issue 22).
@Suite struct RetryTests {
    @Test func aRateLimitedResolveReportsRetryAfterOrWaitsItOutAndSucceeds() async throws {
        let server = try HandoffServer()
        let paid = try server.pay(guid: "usr:77", paymentId: "pi_retry")
        let code = try #require((paid["handoff"] as? [String: Any])?["code"] as? String)

        // Spend the address's 10 resolves a minute on codes nobody has.
        for index in 0..<10 {
            let miss = "ZZZZZZ" + String(Array("23456789ABCDEFGH")[index / 4]) + String(Array("2345")[index % 4])
            #expect(await KitClients.web2App(server).identify(deepLinkValue: miss) == .needsEmailFallback)
        }
        // No retries: the 429 and its Retry-After come back typed, and nothing is kept.
        let impatient = KitClients.web2App(server)
        let refused = await impatient.identify(deepLinkValue: code)
        guard case .failed(.rateLimited(let retryAfter)) = refused else {
            Issue.record("expected rateLimited, got \(refused)")
            return
        }
        #expect(retryAfter >= 1 && retryAfter <= 10)
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
