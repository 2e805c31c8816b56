import Foundation
import HandoffKit
import Testing
import TestSupport

/// The e-mail fallback through the facade: every automatic path misses, `onNeedEmail` fires, the library asks for
/// the mail, and the code from the mail the worker sent identifies the buyer (issue 22).
@Suite struct EmailFallbackTests {
    /// Flipped by the `onNeedEmail` callback.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func raise() { lock.lock(); count += 1; lock.unlock() }
        var raised: Int { lock.lock(); defer { lock.unlock() }; return count }
    }

    @Test func theMailsCodeIdentifiesTheBuyerAfterEveryOtherPathMissed() async throws {
        let server = try await HandoffServer.start(["--fingerprint", "on"])
        let guid = "acct-5521"
        let email = "buyer.kit@example.com"
        _ = try server.pay(guid: guid, paymentId: "pi_mail", email: email)
        let log = LogLines()
        let flag = Flag()
        // The facade (the one test that configures it, so tests do not share it), with an iPhone that the page never
        // saw: the fingerprint misses.
        Web2App.configure(Web2AppConfiguration(
            projectId: server.tenant.project, baseURL: server.baseURL, storage: InMemoryStorage(),
            device: KitClients.iPhone, timeout: 20, retry: .never, languages: ["ru_RU", "en-US"], log: log.sink))
        Web2App.onNeedEmail = { flag.raise() }

        #expect(await Web2App.identify(deepLinkValue: nil) == .needsEmailFallback)
        #expect(flag.raised == 1)
        // AppsFlyer's `deep_link_value` word is no code: nothing is sent for it.
        #expect(await Web2App.identify(deepLinkValue: "handoff") == .needsEmailFallback)
        #expect(flag.raised == 2)

        await #expect(throws: Web2AppError.invalidRequest(code: "VALIDATION_EMAIL_FORMAT")) {
            try await Web2App.requestEmailRecovery(email: "not-an-address")
        }
        let before = Date()
        let requested = try await Web2App.requestEmailRecovery(email: "  " + email + " ")
        guard case .requested(let retryAllowedAt) = requested else { return }
        #expect(abs(retryAllowedAt.timeIntervalSince(before) - 20 * 60) < 30)

        var mail: String?
        for _ in 0..<600 where mail == nil {
            mail = server.mails().first
            if mail == nil { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let raw = try #require(mail, "no recovery mail arrived within 60 s")
        // The phone's first language picked the mail's.
        #expect(RecoveryMail.subject(raw) == "Ваша покупка: откройте её в приложении")
        let code = try #require(RecoveryMail.code(RecoveryMail.textPart(raw)))
        #expect(await Web2App.identify(deepLinkValue: code) == .identified(guid, via: .code))
        #expect(try await Web2App.entitlements().active)

        // What the library logged names routes and statuses only.
        let lines = log.all
        #expect(lines.contains("POST /public/handoff/email-recovery/request -> 204 (attempt 1)"))
        #expect(lines.contains("GET /public/handoff/resolve -> 200 (attempt 1)"))
        for line in lines {
            #expect(!line.contains(code) && !line.contains(guid) && !line.contains("example.com")
                && !line.contains(server.tenant.project), "\(line)")
        }
    }
}
