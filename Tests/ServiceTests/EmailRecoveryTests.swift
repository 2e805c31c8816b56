@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPClient
import HTTPServer
import Postgres
import Redis
import Service
import Synchronization
import Telemetry
import TestSupport
import Testing
import Workers

/// `POST /public/handoff/email-recovery/request` and the `recovery-mail` worker (issue 6), with real Postgres,
/// Redis and an SMTP sink. The code a recovery mail carries is minted by `SendRecoveryMail`, as `handoff work` does.
@Suite struct EmailRecoveryTests {
    static let path = "/public/handoff/email-recovery/request"

    /// A tenant, the API edge over its database, and an in-process worker (dispatcher, relay, consumer) with a clock.
    final class Flow: @unchecked Sendable {
        let fixture: TenantFixture
        let tenant: (org: String, project: String, key: String)
        let sink: SMTPSink
        let redis: ScratchRedis
        let clock: RecoveryTestClock
        let api: APIResponder
        let pool: Pool
        let redisPool: RedisPool
        let relay: JobRelay
        let consumer: JobConsumer
        let registry: JobRegistry

        init(workerSecrets: IdentitySecrets? = TestIdentity.secrets(),
             apiRedisURL: String? = nil, returnScheme: String? = "myapp") throws {
            fixture = try TenantFixture.migrated()
            tenant = try fixture.tenant(returnScheme.map { ["--return-scheme", $0] } ?? [])
            sink = try SMTPSink()
            redis = try ScratchRedis()
            let box = RecoveryTestClock()
            self.clock = box
            let clock: @Sendable () -> Date = { box.now }
            let environment = Environment(
                model: WriteModel(pool: Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 2)), secrets: TestIdentity.secrets()),
                redis: RedisPool(configuration: try RedisConfiguration(
                    url: try apiRedisURL ?? TestEnvironment.redisURL(), poolSize: 2, connectTimeout: 0.3,
                    commandTimeout: 0.3)),
                metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
                clock: clock, publicBaseURL: "https://handoff.example.com",
                emailRecoveryLimit: Flow.limit)
            api = APIResponder(environment: environment)
            let pool = Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: 3))
            self.pool = pool
            redisPool = RedisPool(configuration: try RedisConfiguration(url: redis.url, poolSize: 3, connectTimeout: 1,
                                                                       commandTimeout: 3))
            let settings = RecoveryMailSettings(
                smtp: SMTPClient(configuration: SMTPConfiguration(url: sink.url)), fromAddress: "noreply@handoff.test",
                fromName: "Handoff",
                sender: SendRecoveryMail(workerSecrets.map {
                    IdentityContext(log: EventLog(pool: pool, projections: ProjectionRegistry.service), secrets: $0)
                }),
                publicBaseURL: "https://handoff.example.com")
            registry = JobRegistry([RecoveryMailJob.kind(settings: settings)])
            relay = JobRelay(pool: pool, redis: redisPool, registry: registry, clock: clock)
            consumer = JobConsumer(queue: RecoveryMailJob.queue, name: "test", store: EventLog(
                pool: pool, projections: ProjectionRegistry.service), redis: redisPool, registry: registry,
                visibilityTimeout: 60, clock: clock, blockMilliseconds: 100)
        }

        deinit {
            pool.close()
            redisPool.close()
        }

        /// The production limit (`Environment.defaultEmailRecoveryLimit`: rate, burst and failure policy) under a name
        /// of this test's own, so tests sharing the Redis server do not share a budget.
        static var limit: RateLimit {
            let production = Environment.defaultEmailRecoveryLimit
            return RateLimit(name: "recovery-test-\(UInt64.random(in: 0...UInt64.max))",
                             perSecond: production.perSecond, burst: production.burst,
                             onFailure: production.onFailure)
        }

        func advance(_ seconds: Double) { clock.advance(seconds) }

        func request(_ body: String, ip: String = "198.51.100.20", language: String? = nil) -> Response {
            var headers = [("Content-Type", "application/json")]
            if let language { headers.append(("Accept-Language", language)) }
            return api.respond(to: Request(method: .post, path: EmailRecoveryTests.path, query: [:],
                                           headers: Headers(headers), body: Array(body.utf8), clientIP: ip,
                                           remoteAddress: ip))
        }

        func body(email: String, project: String? = nil) -> String {
            #"{"projectId":"\#(project ?? tenant.project)","email":"\#(email)"}"#
        }

        /// A buyer with `email` and one payment; returns its guid.
        func buyerWithPayment(email: String) throws -> String {
            let user = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                                  body: #"{"email":"\#(email)"}"#))
            let guid = try #require(jsonObject(user)["guid"] as? String)
            let paid = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                                  body: PaymentTests.body(guid: guid, paymentId: "pi_1")))
            #expect(paid.status == 200, "\(bodyText(paid))")
            return guid
        }

        /// Runs the dispatcher, relay and consumer until `jobs` jobs exist and none is pending or enqueued.
        func work(jobs expected: Int) throws {
            let connection = try Connection(configuration: PostgresConfiguration(url: fixture.database.appURL))
            defer { connection.close() }
            #expect(try Subscription.tryLock(name: JobDispatcher.subscriptionName, on: connection))
            let registry = self.registry
            let now = clock.now
            let deadline = Date().addingTimeInterval(20)
            // Other tests' open transactions hold the global horizon back for a moment: poll until all are done.
            while Date() < deadline {
                let handled = try Subscription.processBatch(name: JobDispatcher.subscriptionName, limit: 100,
                                                            on: connection) { events, connection in
                    _ = try JobDispatcher.dispatch(events, registry: registry, now: now, on: connection)
                }
                if handled == 0 { usleep(50_000) }
                _ = try relay.relayDue()
                _ = try consumer.step()
                let count = try pool.withConnection {
                    try JobStore.list(state: nil, org: nil, limit: 1000, on: $0)
                }.count
                if count >= expected, try pending() == 0 { return }
            }
            Issue.record("the jobs did not finish within 20 s")
        }

        /// Jobs not yet done or dead.
        func pending() throws -> Int {
            let counts = try pool.withConnection { try JobStore.counts(on: $0) }
            return (counts[.pending] ?? 0) + (counts[.enqueued] ?? 0)
        }

        func jobs() throws -> [Job] {
            try pool.withConnection { try JobStore.list(state: nil, org: nil, limit: 100, on: $0) }.reversed()
        }

        func events(_ type: String, org: String) throws -> Int {
            try fixture.ownerConnection().query(
                "SELECT count(*) AS n FROM events WHERE org_id = $1::uuid AND event_type = $2",
                [.text(org), .text(type)]).rows[0].int("n")
        }
    }

    /// The decoded text part of a raw mail.
    static func textPart(_ raw: String) -> String { part(raw, type: "text/plain") }

    /// The decoded HTML part of a raw mail.
    static func htmlPart(_ raw: String) -> String { part(raw, type: "text/html") }

    /// The first code-like line of a mail's text.
    static func code(_ text: String) -> String? {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { HandoffCode.parse($0) != nil }
    }

    static func part(_ raw: String, type: String) -> String {
        let parts = raw.components(separatedBy: "Content-Type: \(type); charset=utf-8\r\n")
        guard parts.count > 1 else { return "" }
        let base64 = parts[1].components(separatedBy: "\r\n\r\n")[1].components(separatedBy: "\r\n--")[0]
            .replacingOccurrences(of: "\r\n", with: "")
        return String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func subject(_ raw: String) -> String {
        let header = raw.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ")
        guard let line = header.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("Subject: ") }) else {
            return ""
        }
        return line.dropFirst("Subject: ".count).split(separator: " ").map { word in
            String(decoding: Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data(), as: UTF8.self)
        }.joined()
    }

    @Test func aBuyerWithAPaymentGetsOneMailAndNoSecondWithinTwentyMinutes() throws {
        let flow = try Flow()
        let guid = try flow.buyerWithPayment(email: "Buyer@Example.com")
        let first = flow.request(flow.body(email: "buyer@example.com"))
        #expect(first.status == 204)
        #expect(first.body.isEmpty)
        try flow.work(jobs: 1)
        let mails = flow.sink.messages()
        let jobs = try flow.jobs().map { ($0.state, $0.outcome, $0.lastError) }
        try #require(mails.count == 1, "\(jobs)")
        let raw = mails[0]
        #expect(raw.contains("\r\nTo: buyer@example.com\r\n"))
        #expect(Self.subject(raw) == "Your purchase: open it in the app")
        let text = Self.textPart(raw)
        let code = try #require(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { HandoffCode.parse($0) != nil })
        #expect(text.contains("myapp://handoff?code=\(code)\n"))
        let pageToken = PageToken(masterKey: TestIdentity.secrets().masterKey).seal(try #require(HandoffCode.parse(code)))
        #expect(text.contains("https://handoff.example.com/done/\(pageToken)\n"))
        #expect(text.contains("until 2027-01-18 08:00:00 UTC"))
        // The HTML part carries the same three: the app link, the code, the page link.
        let html = Self.htmlPart(raw)
        #expect(html.contains(#"<html lang="en">"#))
        #expect(html.contains(#"<a href="myapp://handoff?code=\#(code)">Open in the app</a>"#))
        #expect(html.contains("<strong>\(code)</strong>"))
        #expect(html.contains(#"<a href="https://handoff.example.com/done/\#(pageToken)">"#))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 1)
        let sent = try flow.fixture.ownerConnection().query(
            "SELECT data->>'guid' AS guid FROM events WHERE event_type = 'RecoveryMailSent'").rows[0].string("guid")
        #expect(sent == guid)

        // Within 20 minutes: 204 again, the job is done silently, no second mail.
        flow.advance(19 * 60 + 59)
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().count == 1)
        #expect(try flow.jobs().last?.outcome
                == "skipped: a recovery mail went to this address less than 20 minutes ago")

        // After 20 minutes the next request mails again, in Russian when asked.
        flow.advance(1)
        #expect(flow.request(flow.body(email: "buyer@example.com"), language: "ru-RU,ru;q=0.9,en;q=0.8").status == 204)
        try flow.work(jobs: 3)
        let later = flow.sink.messages()
        #expect(later.count == 2)
        #expect(Self.subject(later.last ?? "") == "Ваша покупка: откройте её в приложении")
        let russian = Self.textPart(later.last ?? "")
        let russianCode = try #require(Self.code(russian))
        #expect(russian.contains("Откройте эту ссылку на телефоне, где установлено приложение:\n"
            + "myapp://handoff?code=\(russianCode)\n"))
        #expect(russian.contains("Или введите этот код в приложении:\n\n    \(russianCode)\n"))
        #expect(russian.contains("Страница вашей покупки:\nhttps://handoff.example.com/done/"))
        #expect(russian.contains("Код действует один раз, до "))
        let russianHTML = Self.htmlPart(later.last ?? "")
        #expect(russianHTML.contains(#"<html lang="ru">"#))
        #expect(russianHTML.contains(#"<a href="myapp://handoff?code=\#(russianCode)">Открыть в приложении</a>"#))
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 2)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 3)
    }

    @Test func aProjectWithoutAReturnSchemeGetsAMailWithoutAnAppLink() throws {
        let flow = try Flow(returnScheme: nil)
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let text = Self.textPart(mail)
        let html = Self.htmlPart(mail)
        let code = try #require(Self.code(text))
        #expect(!text.contains("handoff?code=") && !text.contains("Open this link"))
        #expect(!html.contains("handoff?code=") && !html.contains("Open in the app"))
        #expect(text.contains("Or enter this code in the app:\n\n    \(code)\n"))
        #expect(html.contains("<strong>\(code)</strong>"))
        #expect(text.contains("Your purchase page:\nhttps://handoff.example.com/done/"))
    }

    @Test(arguments: [
        (nil, "en"), ("", "en"), ("ru", "ru"), ("RU", "ru"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
        ("en-US,en;q=0.9,ru;q=0.8", "en"), ("en;q=0.5,ru;q=0.8", "ru"), ("ru;q=0.5,en", "en"),
        ("ru;q=0.7,en;q=0.7", "ru"), ("en;q=0.7,ru;q=0.7", "en"), ("de-DE,de;q=0.9", "en"), ("fr,ru;q=0.3", "ru"),
        ("ru;q=0", "en"), ("ru;q=0,en;q=0", "en"), ("ru;q=bad,en;q=0.1", "en"),
    ] as [(String?, String)])
    func acceptLanguagePicksRussianOnlyWhenPreferredOverEnglish(header: String?, expected: String) {
        #expect(EmailRecoveryHandler.language(header) == expected)
    }

    @Test func anUnknownAddressAndAnUnknownProjectGet204AndNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let unknownAddress = flow.request(flow.body(email: "stranger@example.com"))
        let unknownProject = flow.request(flow.body(email: "buyer@example.com",
                                                    project: "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"))
        #expect(unknownAddress.status == 204 && unknownAddress.body.isEmpty)
        #expect(unknownProject.status == 204 && unknownProject.body.isEmpty)
        #expect(unknownAddress.headers["Content-Type"] == unknownProject.headers["Content-Type"])
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().isEmpty)
        #expect(try flow.jobs().map(\.outcome) == ["skipped: no buyer with a payment has this address",
                                                   "skipped: no buyer with a payment has this address"])
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 1)
        #expect(try flow.events("EmailRecoveryRequested", org: RecoveryStreams.unknownProjectOrg.uuidString) == 1)
        // The address is never stored in clear.
        let clear = try flow.fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM events WHERE data::text ILIKE '%stranger@example.com%'").rows[0].int("n")
        #expect(clear == 0)
    }

    @Test func anotherOrganizationsProjectWithThisBuyersAddressGets204AndNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let other = try flow.fixture.tenant(["--return-scheme", "otherapp"])
        let response = flow.request(flow.body(email: "buyer@example.com", project: other.project))
        #expect(response.status == 204 && response.body.isEmpty)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        let job = try #require(try flow.jobs().first)
        #expect(job.state == .done)
        #expect(job.orgId?.uuidString.lowercased() == other.org.lowercased())
        #expect(job.outcome == "skipped: no buyer with a payment has this address")
        #expect(try flow.events("EmailRecoveryRequested", org: other.org) == 1)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
        #expect(try flow.events("RecoveryMailSent", org: other.org) == 0)
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
        #expect(try flow.fixture.ownerConnection().query(
            "SELECT count(*) AS n FROM handoff_codes WHERE source = 'recovery'").rows[0].int("n") == 0)
    }

    @Test func anErasedAddressIsRecordedWithAPlaceholderLikeAnyRequestAndGetsNoMail() throws {
        let flow = try Flow()
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        let org = try #require(UUID(uuidString: flow.tenant.org))
        let subject = RecoveryStreams.emailSubject(
            emailHash: LookupHash.email("buyer@example.com", pepper: TestIdentity.secrets().lookupPepper))
        let keys = SubjectKeys(masterKey: TestIdentity.secrets().masterKey)
        let owner = try flow.fixture.ownerConnection()
        defer { owner.close() }
        try keys.destroy(org: org, subject: subject, on: owner)

        let response = flow.request(flow.body(email: "buyer@example.com"))
        #expect(response.status == 204 && response.body.isEmpty)
        // The same work as for a live address: one event appended, its address a placeholder that reads as erased.
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 1)
        let text = try #require(try owner.query("SELECT data->>'email' AS email FROM events "
            + "WHERE event_type = 'EmailRecoveryRequested'").rows.first).string("email")
        let sealed = try #require(SealedValue(text))
        #expect(try keys.reveal(sealed, field: .email, org: org, subject: subject, on: owner) == .erased)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        #expect(try flow.jobs().map(\.outcome) == ["skipped: the address was erased"])
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
    }

    @Test func withoutIdentitySecretsOnTheWorkerAKnownBuyersJobGoesDeadAndSendsNothing() throws {
        let flow = try Flow(workerSecrets: nil)
        _ = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        #expect(flow.sink.messages().isEmpty)
        let job = try #require(try flow.jobs().first)
        #expect(job.state == .dead)
        #expect(job.lastError == "no recovery code without the identity secrets on this worker")
        #expect(try flow.events("RecoveryMailSent", org: flow.tenant.org) == 0)
    }

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
        let code = try #require(Self.textPart(mail).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { HandoffCode.parse($0) != nil })
        // The mailed code is stored only as its hash, with source 'recovery' and the address it verifies.
        let row = try #require(try flow.fixture.ownerConnection().query(
            "SELECT source, guid::text AS guid, email_hash FROM handoff_codes WHERE code_hash = $1",
            [.text(LookupHash.of(Array(code.utf8), kind: "code", pepper: TestIdentity.secrets().lookupPepper))])
            .rows.first)
        #expect(try row.string("source") == "recovery" && row.string("guid") == guid && row["email_hash"] != nil)

        // The page link in the mail shows the same code.
        let pageToken = PageToken(masterKey: TestIdentity.secrets().masterKey).seal(try #require(HandoffCode.parse(code)))
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
    static func base64URL(_ bytes: [UInt8]) -> String {
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
            method: .post, path: Self.path, query: [:], headers: Headers([("Content-Type", "application/json")]),
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
        let text = Self.textPart(mail)
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

    @Test func malformedBodiesAre400NamingTheFieldAndAnOversizedOneIs413() throws {
        let flow = try Flow()
        let cases: [(String, String)] = [
            (#"{"email":"a@example.com"}"#, "field 'projectId' is required"),
            (#"{"projectId":"\#(flow.tenant.project)"}"#, "field 'email' is required"),
            (#"{"projectId":"nope","email":"a@example.com"}"#, "field 'projectId'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"not-an-address"}"#, "field 'email'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"a@example.com\r\nBcc: b@example.com"}"#,
             "field 'email'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":"a@example.com","guid":"x"}"#, "field 'guid'"),
            (#"{"projectId":"\#(flow.tenant.project)","email":5}"#, "field 'email' must be a string"),
            ("not json", "not valid JSON"),
        ]
        for (index, (body, message)) in cases.enumerated() {
            let response = flow.request(body, ip: "198.51.100.\(100 + index)")
            #expect(response.status == 400, "\(body)")
            let json = jsonObject(response)
            #expect(json["statusCode"] as? Int == 400)
            #expect((json["message"] as? String)?.contains(message) == true, "\(body) → \(bodyText(response))")
        }
        let limit = APIResponder(environment: flow.api.environment).bodyLimit(for: .post, path: Self.path)
        #expect(limit == 1024)
        let oversized = flow.api.payloadTooLarge(Request(
            method: .post, path: Self.path, query: [:], headers: Headers([]), body: [], clientIP: "198.51.100.99",
            remoteAddress: "198.51.100.99"))
        #expect(oversized.status == 413)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
    }

    @Test func theSixthRequestFromOneIPWithin15MinutesIs429() throws {
        // The limit the API really uses: 5 per 15 minutes per IP, failing closed.
        #expect(Environment.defaultEmailRecoveryLimit
                == RateLimit.perWindow(name: "email-recovery", count: 5, seconds: 900, onFailure: .closed))
        let flow = try Flow()
        for _ in 0..<5 {
            #expect(flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.77").status == 204)
        }
        let refused = flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.77")
        #expect(refused.status == 429)
        #expect(Int(refused.headers["Retry-After"] ?? "") ?? 0 > 0)
        #expect(jsonObject(refused)["statusCode"] as? Int == 429)
        // Another IP has its own budget.
        #expect(flow.request(flow.body(email: "someone@example.com"), ip: "198.51.100.78").status == 204)
    }

    @Test func withRedisDownTheEndpointFailsClosedWith503() throws {
        let port = try Shell.freePort()
        let flow = try Flow(apiRedisURL: "redis://127.0.0.1:\(port)")
        let response = flow.request(flow.body(email: "someone@example.com"))
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] != nil)
        #expect(try flow.events("EmailRecoveryRequested", org: flow.tenant.org) == 0)
    }
}

/// The clock of a recovery test, moved by hand.
final class RecoveryTestClock: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

