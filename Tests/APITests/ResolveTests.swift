import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import Testing
import TestSupport

/// `GET /public/handoff/resolve` (issue 5, "Resolve a code", "Install Referrer"): one-time exchange, the same 404
/// for every miss, e-mail verification, recovery codes, limits.
@Suite struct ResolveTests {
    static let now = PaymentTests.now
    static let guidA = PaymentTests.guidA
    static let notFound = #"{"statusCode":404,"message":"no live code matches"}"#

    /// The edge as `serve` builds it, with resolve limits of their own (tests share one Redis and client IPs).
    static func responder(
        _ fixture: TenantFixture, redisURL: String? = nil, clock: @escaping @Sendable () -> Date = { now },
        resolveLimit: RateLimit? = TestIdentity.uniqueLimit(count: 10), budget: FailedLookupBudget? = budget(1000),
        poolSize: Int = 4
    ) throws -> APIResponder {
        let environment = Environment(
            model: WriteModel(
                pool: Pool(configuration: PostgresConfiguration(url: fixture.database.appURL, poolSize: poolSize)),
                secrets: TestIdentity.secrets()),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try redisURL ?? TestEnvironment.redisURL(), poolSize: 4, connectTimeout: 0.3,
                commandTimeout: 0.3)),
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            authFailureLimit: TestIdentity.uniqueLimit(count: 20),
            clock: clock, resolveLimit: resolveLimit, failedLookupBudget: budget)
        return APIResponder(environment: environment)
    }

    /// A failed-lookup budget of `failures` per minute under a name of its own.
    static func budget(_ failures: Int) -> FailedLookupBudget {
        FailedLookupBudget(name: "test-\(UInt64.random(in: 0...UInt64.max))", failures: failures, windowSeconds: 60,
                           rememberSeconds: 600)
    }

    /// Records a payment through `POST /s2s/v1/payments`; returns (handoff code, install token).
    static func pay(_ api: APIResponder, key: String, guid: String = guidA, paymentId: String = "pi_1",
                    email: String? = nil) throws -> (code: String, token: String) {
        let extra = email.map { #","email":"\#($0)""# } ?? ""
        let response = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: key,
                                                  body: PaymentTests.body(guid: guid, paymentId: paymentId,
                                                                          extra: extra)))
        #expect(response.status == 200, "\(bodyText(response))")
        let json = jsonObject(response)
        return (try #require((json["handoff"] as? [String: Any])?["code"] as? String),
                try #require((json["install"] as? [String: Any])?["token"] as? String))
    }

    static func resolve(_ api: APIResponder, _ code: String?, ip: String = "198.51.100.20") -> Response {
        api.respond(to: publicRequest("/public/handoff/resolve", query: code.map { ["code": $0] } ?? [:],
                                      clientIP: ip))
    }

    static func found(_ guid: String, _ project: String) -> String {
        #"{"success":true,"data":{"guid":"\#(guid)","projectId":"\#(project)"}}"#
    }

    static func count(_ fixture: TenantFixture, _ type: String) throws -> Int {
        try fixture.ownerConnection().query("SELECT count(*) AS n FROM events WHERE event_type = $1",
                                            [.text(type)]).rows[0].int("n")
    }

    @Test func aCodeAndATokenEachResolveOnceToTheGuidAndThePaymentsProject() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try Self.responder(fixture)
        let paid = try Self.pay(api, key: a.key)
        let other = try Self.pay(api, key: b.key, guid: "3f8fad5b-d9cb-469f-a165-70867728950e")
        for code in [paid.code, paid.token] {
            let first = Self.resolve(api, code)
            #expect(first.status == 200)
            #expect(first.headers["Content-Type"] == "application/json")
            #expect(bodyText(first) == Self.found(Self.guidA, a.project))
            let again = Self.resolve(api, code)
            #expect(again.status == 404)
            #expect(bodyText(again) == Self.notFound)
        }
        // Another organization's code answers that organization's buyer and project, never org A's.
        #expect(bodyText(Self.resolve(api, other.token)) == Self.found("3f8fad5b-d9cb-469f-a165-70867728950e",
                                                                       b.project))
        #expect(try Self.count(fixture, "HandoffCodeRedeemed") == 3)
        let owner = try fixture.ownerConnection()
        #expect(try owner.query("SELECT count(*) AS n FROM handoff_codes WHERE redeemed_at IS NOT NULL")
            .rows[0].int("n") == 3)
        // The redemption events hold the code's hash, never the code.
        let log = try owner.query("SELECT string_agg(data::text, ' ') AS all FROM events").rows[0].string("all")
        #expect(!log.contains(paid.code) && !log.contains(paid.token))
        #expect(api.bodyLimit(for: .get, path: "/public/handoff/resolve") == 0)
    }

    @Test func everyMissAnswersTheSameBytes() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let clock = SettableClock(Self.now)
        let api = try Self.responder(fixture, clock: { clock.now() },
                                     resolveLimit: TestIdentity.uniqueLimit(count: 100))
        let spent = try Self.pay(api, key: tenant.key, paymentId: "pi_spent")
        #expect(Self.resolve(api, spent.code).status == 200)
        let live = try Self.pay(api, key: tenant.key, paymentId: "pi_live")
        let misses: [String?] = [
            spent.code, "ZZZZZZZZ", live.code.lowercased(), " " + live.code, live.code + " ",
            String(live.code.prefix(4)) + " " + String(live.code.dropFirst(4)), live.code + "2", "", "O0I1O0I1",
            "%00", "\u{0410}BCDEFGH", nil,
        ]
        var headers: Set<String> = []
        for miss in misses {
            let response = Self.resolve(api, miss)
            #expect(response.status == 404, "\(String(describing: miss))")
            #expect(bodyText(response) == Self.notFound, "\(String(describing: miss))")
            headers.insert(response.headers.pairs.filter { $0.0 != "X-Request-Id" }.map { "\($0.0)=\($0.1)" }
                .sorted().joined(separator: ","))
        }
        #expect(headers.count == 1)
        // Expired: a handoff code at 72 h exactly, an install token at 30 days exactly; a millisecond before, live.
        let edge = try Self.pay(api, key: tenant.key, paymentId: "pi_edge")
        clock.set(Self.now + 72 * 3600 - 0.001)
        #expect(Self.resolve(api, live.code).status == 200)
        clock.set(Self.now + 72 * 3600)
        let expired = Self.resolve(api, edge.code)
        #expect(expired.status == 404 && bodyText(expired) == Self.notFound)
        clock.set(Self.now + 30 * 86400 - 0.001)
        #expect(Self.resolve(api, live.token).status == 200)
        clock.set(Self.now + 30 * 86400)
        #expect(bodyText(Self.resolve(api, edge.token)) == Self.notFound)
        #expect(try Self.count(fixture, "HandoffCodeRedeemed") == 3)
    }

    @Test func fiftyConcurrentExchangesOfOneCodeGiveOne200AndOneRedemption() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try Self.responder(fixture, resolveLimit: TestIdentity.uniqueLimit(count: 1000), poolSize: 16)
        let paid = try Self.pay(api, key: tenant.key, email: "c@example.com")
        let answers = Answers()
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for _ in 0..<50 {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                let response = Self.resolve(api, paid.code)
                answers.add(response.status, bodyText(response))
                group.leave()
            }
        }
        for _ in 0..<50 { start.signal() }
        group.wait()
        #expect(answers.statuses.filter { $0 == 200 }.count == 1)
        #expect(answers.statuses.filter { $0 == 404 }.count == 49)
        #expect(try Self.count(fixture, "HandoffCodeRedeemed") == 1)
        #expect(try Self.count(fixture, "EmailVerified") == 1)
    }

    @Test func redeemingThePaymentsCodeVerifiesItsEmailAndUsersThenFindsTheBuyer() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try Self.responder(fixture)
        let findByEmail = { (email: String) -> String in
            let response = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: tenant.key,
                                                      body: #"{"email":"\#(email)"}"#))
            return jsonObject(response)["guid"] as? String ?? "none"
        }
        let paid = try Self.pay(api, key: tenant.key, email: "Buyer@Example.com")
        // Unverified: an e-mail alone makes a new buyer.
        #expect(findByEmail("buyer@example.com") != Self.guidA)
        // The install token does not verify the e-mail.
        #expect(Self.resolve(api, paid.token).status == 200)
        #expect(try Self.count(fixture, "EmailVerified") == 0)
        #expect(findByEmail("buyer@example.com") != Self.guidA)
        // The handoff code does; from then on the e-mail finds this buyer.
        #expect(bodyText(Self.resolve(api, paid.code)) == Self.found(Self.guidA, tenant.project))
        #expect(try Self.count(fixture, "EmailVerified") == 1)
        #expect(findByEmail("buyer@example.com") == Self.guidA)
        let user = api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(Self.guidA)", key: tenant.key))
        #expect(jsonObject(user)["emailVerified"] as? Bool == true)
        // A payment without an e-mail: its code verifies nothing.
        let bare = try Self.pay(api, key: tenant.key, guid: "4f8fad5b-d9cb-469f-a165-70867728950e", paymentId: "pi_2")
        #expect(Self.resolve(api, bare.code).status == 200)
        #expect(try Self.count(fixture, "EmailVerified") == 1)
    }

    @Test func aRecoveryCodeMintedThroughTheSharedFunctionResolvesAndVerifiesItsEmail() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try Self.responder(fixture)
        // A buyer who paid without an e-mail, then had one attached by a second payment.
        _ = try Self.pay(api, key: tenant.key, paymentId: "pi_1")
        let second = try Self.pay(api, key: tenant.key, paymentId: "pi_2", email: "r@example.com")
        let secrets = TestIdentity.secrets()
        let codes = CodeMinter(secrets: secrets)
        let store = EventLog(pool: Pool(configuration: PostgresConfiguration(url: fixture.database.appURL)),
                             projections: ProjectionRegistry.service)
        let org = try #require(OrgID.parse(tenant.org).success)
        let guid = try #require(BuyerGuid.parse(Self.guidA).success)
        let payment = try #require(PaymentID.parse("pi_1").success)
        let emailHash = LookupHash.email("r@example.com", pepper: secrets.lookupPepper)
        // Two recovery codes for one payment: the schema holds any number.
        let minted = try (0..<2).map { _ in
            try store.transact(in: .org(org.uuid)) { transaction in
                let minted = try codes.mint(.handoff, source: .recovery, guid: guid, paymentId: payment,
                                            emailHash: emailHash, org: org, now: Self.now, in: transaction)
                try transaction.append(org: org.uuid, stream: BuyerStreams.buyer(guid), expectedVersion: .any,
                                       events: [minted.event], metadata: EventMetadata(actor: .worker("recovery")))
                return minted
            }
        }
        #expect(minted[0].text != minted[1].text && HandoffCode.parse(minted[0].text) != nil)
        #expect(minted[0].expiresAt == Self.now.addingTimeInterval(72 * 3600))
        let owner = try fixture.ownerConnection()
        #expect(try owner.query(
            "SELECT count(*) AS n FROM handoff_codes WHERE source = 'recovery' AND email_hash = $1",
                                [.text(emailHash)]).rows[0].int("n") == 2)
        #expect(bodyText(Self.resolve(api, minted[0].text)) == Self.found(Self.guidA, tenant.project))
        #expect(try Self.count(fixture, "EmailVerified") == 1)
        #expect(try owner.query("SELECT verified FROM buyer_emails WHERE email_hash = $1", [.text(emailHash)])
            .rows[0].string("verified") == "t")
        // The second recovery code still works once, but verifies nothing more; the payment's own codes still work.
        #expect(Self.resolve(api, minted[1].text).status == 200)
        #expect(Self.resolve(api, second.code).status == 200)
        #expect(try Self.count(fixture, "EmailVerified") == 1)
        // A repeated payment request still re-displays the payment's own codes, not a recovery code.
        let repeatBody = PaymentTests.body(paymentId: "pi_1")
        let again = jsonObject(api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: tenant.key,
                                                          body: repeatBody)))
        #expect((again["handoff"] as? [String: Any])?["code"] as? String != minted[0].text)
    }

    @Test func tenRequestsPerMinutePerIPThen429AndRedisDownAnswers503() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try Self.responder(fixture)
        let paid = try Self.pay(api, key: tenant.key)
        for _ in 0..<10 { #expect(Self.resolve(api, "ZZZZZZZZ", ip: "192.0.2.60").status == 404) }
        let limited = Self.resolve(api, paid.code, ip: "192.0.2.60")
        #expect(limited.status == 429)
        // 10 per 60 s: the next request fits 6 s after the burst (less the time the burst took).
        let retryAfter = try #require(Int(limited.headers["Retry-After"] ?? ""))
        #expect((1...6).contains(retryAfter))
        #expect(bodyText(limited) == #"{"statusCode":429,"code":"RATE_LIMITED","# +
            #""message":"too many requests; retry after \#(retryAfter) s"}"#)
        #expect(Self.resolve(api, paid.code, ip: "192.0.2.61").status == 200)
        #expect(Environment.defaultResolveLimit == RateLimit.perWindow(name: "resolve", count: 10, seconds: 60,
                                                                       onFailure: .closed))

        let dead = try Self.responder(fixture, redisURL: "redis://127.0.0.1:1")
        let down = Self.resolve(dead, paid.token)
        #expect(down.status == 503)
        #expect(down.headers["Retry-After"] == "5")
        #expect(bodyText(down) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"rate limiting is unavailable; retry later"}"#)
        // The failed-lookup budget alone also fails closed.
        let budgetOnly = try Self.responder(fixture, redisURL: "redis://127.0.0.1:1", resolveLimit: nil)
        #expect(Self.resolve(budgetOnly, paid.token).status == 503)
        #expect(try Self.count(fixture, "HandoffCodeRedeemed") == 1)
    }

    @Test func onceTheFailedLookupBudgetIsSpentRecentlyFailedIPsGet429AndCleanIPsPass() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let budget = Self.budget(3)
        let api = try Self.responder(fixture, resolveLimit: TestIdentity.uniqueLimit(count: 100), budget: budget)
        let first = try Self.pay(api, key: tenant.key, paymentId: "pi_1")
        let second = try Self.pay(api, key: tenant.key, paymentId: "pi_2")
        // Within the budget, an IP that failed keeps getting answers.
        #expect(Self.resolve(api, "ZZZZZZZZ", ip: "192.0.2.70").status == 404)
        #expect(Self.resolve(api, "ZZZZZZZY", ip: "192.0.2.70").status == 404)
        #expect(Self.resolve(api, first.code, ip: "192.0.2.70").status == 200)
        // The third failure (another IP) spends the budget.
        #expect(Self.resolve(api, "ZZZZZZZX", ip: "192.0.2.71").status == 404)
        // Now recently failed IPs are refused before any lookup, even with a good code …
        for ip in ["192.0.2.70", "192.0.2.71"] {
            let refused = Self.resolve(api, second.code, ip: ip)
            #expect(refused.status == 429)
            #expect(Int(refused.headers["Retry-After"] ?? "") ?? 0 >= 1)
        }
        // … while a clean IP still passes, with a good code and with a miss (which marks it).
        #expect(Self.resolve(api, second.code, ip: "192.0.2.72").status == 200)
        #expect(Self.resolve(api, "ZZZZZZZW", ip: "192.0.2.73").status == 404)
        #expect(Self.resolve(api, second.token, ip: "192.0.2.73").status == 429)
        #expect(try Self.count(fixture, "HandoffCodeRedeemed") == 2)
        // Redis holds keyed hashes of the IPs, never the IPs.
        let redis = RedisPool(configuration: try RedisConfiguration(url: try TestEnvironment.redisURL(), poolSize: 1))
        guard case .array(let keys) = try redis.command(["KEYS", "flb:\(budget.name):*"]) else {
            Issue.record("KEYS did not answer a list")
            return
        }
        let names = keys.compactMap(\.string)
        #expect(names.count == 4)
        #expect(names.allSatisfy { !$0.contains("192.0.2") })
        #expect(Environment.defaultFailedLookupBudget.failures == 300)
    }

    @Test func withoutIdentitySecretsResolveAnswers503() throws {
        let fixture = try TenantFixture.migrated()
        let api = try fixture.responder(identity: nil)
        let response = Self.resolve(api, "ZZZZZZZZ")
        #expect(response.status == 503 && response.headers["Retry-After"] == "60")
        #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"buyer identity is not configured on this server"}"#)
    }

    @Test func replayRebuildsRedeemedCodesAndVerifiedEmails() throws {
        let fixture = try TenantFixture.migrated()
        let tenant = try fixture.tenant()
        let api = try Self.responder(fixture, resolveLimit: nil, budget: nil)
        for index in 0..<4 {
            let paid = try Self.pay(api, key: tenant.key, guid: String(format: "%08x-d9cb-469f-a165-70867728950e",
                                                                       index + 1),
                                    paymentId: "pi_\(index)", email: "e\(index)@example.com")
            if index % 2 == 0 { #expect(Self.resolve(api, paid.code).status == 200) }
            if index < 3 { #expect(Self.resolve(api, paid.token).status == 200) }
        }
        let owner = try fixture.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM handoff_codes ORDER BY code_hash").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyer_emails ORDER BY guid, email_hash").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(try owner.query("SELECT count(*) AS n FROM handoff_codes WHERE redeemed_at IS NOT NULL")
            .rows[0].int("n") == 5)
        #expect(try owner.query("SELECT count(*) AS n FROM buyer_emails WHERE verified").rows[0].int("n") == 2)
        try owner.execute(
            "DELETE FROM payments; DELETE FROM handoff_codes; DELETE FROM buyer_emails; DELETE FROM buyers")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try snapshot() == live)
    }
}

extension Result {
    fileprivate var success: Success? { if case .success(let value) = self { value } else { nil } }
}
