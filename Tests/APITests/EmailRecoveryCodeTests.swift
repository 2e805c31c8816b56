@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Testing
import TestSupport

/// The code a recovery mail carries (minted by `SendRecoveryMail`, as `handoff work` does): it resolves once, to the
/// buyer, and verifies the address; also through a real `handoff work` process.
@Suite struct EmailRecoveryCodeTests {
    typealias Flow = EmailRecoveryFlow

    @Test func theRecoveredCodeResolvesToTheBuyerOnceAndVerifiesTheAddress() throws {
        let flow = try Flow()
        let guid = try flow.buyerWithPayment(email: "buyer@example.com")
        // Before: the e-mail is attached unverified, so an e-mail-only lookup makes a new buyer.
        let before = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: flow.tenant.key,
                                                     body: #"{"email":"buyer@example.com"}"#))
        #expect(jsonObject(before)["guid"] as? String != guid)

        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let code = try #require(RecoveryMail.textPart(mail).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { HandoffCode.parse($0) != nil })
        // The mailed code is stored only as its hash, with source 'recovery' and the address it verifies.
        let row = try #require(try flow.fixture.ownerConnection().query(
            "SELECT source, guid::text AS guid, email_hash FROM handoff_codes WHERE code_hash = $1",
            [.text(LookupHash.of(Array(code.utf8), kind: "code", pepper: TestIdentity.secrets().lookupPepper))])
            .rows.first)
        #expect(try row.string("source") == "recovery" && row.string("guid") == guid && row["email_hash"] != nil)

        // The page link in the mail shows the same code.
        let pageToken = PageToken(masterKey: TestIdentity.secrets().masterKey)
            .seal(try #require(HandoffCode.parse(code)))
        let page = flow.api.respond(to: Request(method: .get, path: "/done/\(pageToken)",
                                                headers: Headers([("User-Agent", "curl/8")])))
        #expect(page.status == 200 && bodyText(page).contains(code))

        let resolved = ResolveTests.resolve(flow.api, code, ip: "198.51.100.77")
        #expect(resolved.status == 200)
        let data = jsonObject(resolved)["data"] as? [String: Any]
        #expect(data?["guid"] as? String == guid && data?["projectId"] as? String == flow.tenant.project)
        #expect(try flow.events("HandoffCodeRedeemed", org: flow.tenant.org) == 1)
        #expect(try flow.events("EmailVerified", org: flow.tenant.org) == 1)
        // Once: a second exchange is the common 404.
        #expect(ResolveTests.resolve(flow.api, code, ip: "198.51.100.77").status == 404)

        // The finance feed opens the request's address for its organization (sealed for the address, not a buyer).
        let feed = flow.api.respond(to: s2sRequest(.get, "/s2s/v1/events", key: flow.tenant.key))
        let requested = (jsonObject(feed)["events"] as? [[String: Any]])?
            .first { $0["event_type"] as? String == "EmailRecoveryRequested" }
        #expect((requested?["data"] as? [String: Any])?["email"] as? String == "buyer@example.com")

        // After: the verified address finds this buyer.
        let after = flow.api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: flow.tenant.key,
                                                    body: #"{"email":"buyer@example.com"}"#))
        #expect(jsonObject(after)["guid"] as? String == guid)
    }

    /// base64url, as `handoff` reads its secrets from the environment.
    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func aHandoffWorkProcessDispatchesRelaysAndMailsARecoveryWhoseCodeResolves() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant(["--return-scheme", "myapp"])
        let api = try fixture.responder(publicBaseURL: "https://handoff.example.com")
        let user = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                              body: #"{"email":"buyer@example.com"}"#))
        let guid = try #require(jsonObject(user)["guid"] as? String)
        let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                              body: PaymentTests.body(guid: guid, paymentId: "pi_1")))
        #expect(paid.status == 200, "\(bodyText(paid))")
        let sink = try SMTPSink()
        let redis = try ScratchRedis()
        // The identity secrets of the in-process API (`TestIdentity`), so the worker's code resolves there.
        let secrets = TestIdentity.secrets()
        let environment = ProcessInfo.processInfo.environment.merging([
            "DATABASE_URL": fixture.database.appURL, "REDIS_URL": redis.url, "SMTP_URL": sink.url,
            "MAIL_FROM": "noreply@handoff.test", "PUBLIC_BASE_URL": "https://handoff.example.com",
            "HANDOFF_MASTER_KEY": Self.base64URL(secrets.masterKey),
            "HANDOFF_LOOKUP_PEPPER": Self.base64URL(secrets.lookupPepper),
            "HANDOFF_PASS_KEYS": "old1:" + Self.base64URL(TestIdentity.oldPassKey),
            "LOG_LEVEL": "warning", "WORK_THREADS": "1", "JOB_VISIBILITY_TIMEOUT_SECONDS": "30",
        ]) { $1 }
        let worker = try ChildProcess([try HandoffBinary.path(), "work", "--only", "dispatcher,relay,mail"],
                                      environment: environment)
        let ip = "203.0.113.\(Int.random(in: 1...254))"
        let response = api.respond(to: Request(
            method: .post, path: Flow.path, query: [:], headers: Headers([("Content-Type", "application/json")]),
            body: Array(#"{"projectId":"\#(tenant.project)","email":"buyer@example.com"}"#.utf8), clientIP: ip,
            remoteAddress: ip))
        #expect(response.status == 204)
        var mails: [String] = []
        let deadline = Date().addingTimeInterval(120)
        while mails.isEmpty && Date() < deadline {
            usleep(100_000)
            mails = sink.messages()
        }
        worker.signal(SIGTERM)
        #expect(try worker.wait(timeout: 60) == .exited(0), "\(worker.output())")
        let mail = try #require(mails.first, "no mail within 120 s: \(worker.output())")
        #expect(mails.count == 1)
        #expect(mail.contains("\r\nTo: buyer@example.com\r\n"))
        let text = RecoveryMail.textPart(mail)
        let code = try #require(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { HandoffCode.parse($0) != nil })
        #expect(text.contains("myapp://handoff?code=\(code)\n"))
        let resolved = ResolveTests.resolve(api, code, ip: ip)
        #expect(resolved.status == 200, "\(bodyText(resolved))")
        let data = jsonObject(resolved)["data"] as? [String: Any]
        #expect(data?["guid"] as? String == guid && data?["projectId"] as? String == tenant.project)
        #expect(try fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE event_type = 'RecoveryMailSent'").rows[0].int("n") == 1)
    }
}
