import Foundation
import HandoffKit
import Testing
import TestSupport

/// The library when the server cannot answer: Redis down (the public routes fail closed with 503 + `Retry-After`)
/// and a server that accepts but never answers (the request's timeout ends it) (issue 22).
@Suite struct OutageTests {
    @Test func aServerWithoutRedisAnswers503AndTheLibraryRetriesUntilItIsBack() async throws {
        let server = try await HandoffServer.start()
        let paid = try server.pay(guid: "usr:503", paymentId: "pi_503")
        let code = try #require((paid["handoff"] as? [String: Any])?["code"] as? String)

        server.redis.pause()
        let refused = await KitClients.web2App(server).identify(deepLinkValue: code)
        guard case .failed(.serverUnavailable(let retryAfter)) = refused else {
            server.redis.resume()
            Issue.record("expected serverUnavailable, got \(refused)")
            return
        }
        #expect(retryAfter == 5)

        // Redis comes back while the library waits out Retry-After: the same code then resolves.
        let log = LogLines()
        let patient = KitClients.web2App(server, retry: RetryPolicy(maxAttempts: 3, maxDelay: 10), log: log)
        Task {
            try await Task.sleep(nanoseconds: 2_000_000_000)
            server.redis.resume()
        }
        #expect(await patient.identify(deepLinkValue: code) == .identified("usr:503", via: .code))
        #expect(log.all.first == "GET /public/handoff/resolve -> 503 (attempt 1)")
        #expect(log.all.last?.hasPrefix("GET /public/handoff/resolve -> 200") == true)
    }

    @Test func aServerThatNeverAnswersEndsInATimeout() async throws {
        let server = try await HandoffServer.start()
        server.pause()
        defer { server.resume() }
        let client = Web2AppClient(configuration: Web2AppConfiguration(
            projectId: server.tenant.project, baseURL: server.baseURL, storage: InMemoryStorage(),
            device: NoDeviceTraits(), timeout: 1, retry: RetryPolicy()))
        let started = Date()
        #expect(await client.identify(deepLinkValue: "ABCD2345") == .failed(.network(timedOut: true)))
        let waited = Date().timeIntervalSince(started)
        // URLSession's default would wait 60 s; a loaded machine may delay the resumption by a few seconds.
        #expect(waited >= 0.9 && waited < 30, "\(waited)")
    }
}
