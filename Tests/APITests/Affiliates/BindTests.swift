import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Testing
import TestSupport

/// `POST /v1/app-store/bind` (issue 15): the token, idempotence per (token, click), first touch inside the window,
/// replacement after it, and every refusal.
@Suite struct BindTests {
    private typealias F = AffiliateFixture

    /// A project with a campaign (7-day window, offer code `offer`) and an affiliate with `code`; a click on its link.
    private struct Program {
        let org: String
        let project: String
        let key: String
        let campaign: String
        let affiliate: String
    }

    private func program(_ fixture: F, code: String, offer: String = "SPRING50", windowDays: Int = 7,
                         tenant: (org: String, project: String, key: String)? = nil) throws -> Program {
        let t = try tenant ?? fixture.tenant()
        let campaign = try fixture.campaign(key: t.key, #"{"name":"C","commission":\#(F.percent),"#
                                                + #""windowDays":\#(windowDays),"offerCode":"\#(offer)"}"#)
        let affiliate = try fixture.affiliate(key: t.key, campaign: campaign, refCode: code)
        return Program(org: t.org, project: t.project, key: t.key, campaign: campaign,
                       affiliate: try #require(affiliate["affiliateId"] as? String))
    }

    private func click(_ fixture: F, _ code: String, project: String) throws -> String {
        try #require(F.clickID(fixture.follow(code, project: project)))
    }

    /// The referral `token` carries in `org`, read as the ledger reads it (the application role, in the org's scope).
    private func referral(_ fixture: F, org: String, token: String) throws -> Referral? {
        let pool = Pool(configuration: PostgresConfiguration(url: fixture.tenants.database.appURL, poolSize: 1))
        defer { pool.close() }
        let orgId = try #require(UUID(uuidString: org))
        return try pool.transaction(opening: OrgScope.org(orgId).statement) { connection in
            try AffiliateLookup.referral(org: orgId, appAccountToken: try #require(UUID(uuidString: token)),
                                         on: connection)
        }
    }

    private static let window = 7.0 * 86_400

    @Test func aClickWithoutAGuidMintsATokenOnceAndARetryAnswersTheSame() throws {
        let fixture = try F.migrated()
        let p = try program(fixture, code: "JANE2345")
        let signed = try click(fixture, "JANE2345", project: p.project)
        fixture.clock.set(F.start.addingTimeInterval(60))
        let first = fixture.bind(F.bindBody(project: p.project, click: signed))
        #expect(first.status == 200)
        let token = try #require(F.data(first)["appAccountToken"] as? String)
        #expect(UUID(uuidString: token) != nil && token == token.lowercased())
        #expect(bodyText(first) == #"{"success":true,"data":{"appAccountToken":"\#(token)","offerCode":"SPRING50","#
            + #""expiresAt":"\#(PaymentFields.text(F.start.addingTimeInterval(60 + Self.window)))"}}"#)
        fixture.clock.set(F.start.addingTimeInterval(3600))
        let again = fixture.bind(F.bindBody(project: p.project, click: signed))
        #expect(again.status == 200 && bodyText(again) == bodyText(first))
        #expect(try fixture.events("ReferralBound", org: p.org) == 1)
        let row = try #require(try fixture.owner().query(
            "SELECT app_account_token::text AS token FROM affiliate_clicks WHERE org_id = $1::uuid",
            [.text(p.org)]).rows.first)
        #expect(row["token"] == token)
        // The ledger's read: the referral with its campaign's rule, in this org only.
        let held = try #require(try referral(fixture, org: p.org, token: token))
        #expect(held.affiliateId.description == p.affiliate && held.campaignId.description == p.campaign)
        #expect(held.commission == CommissionRule(kind: .percent(basisPoints: 1500)) && held.holdDays == 30)
        #expect(held.boundAt == F.start.addingTimeInterval(60))
        #expect(held.windowEndsAt == F.start.addingTimeInterval(60 + Self.window))
        #expect(held.clickId == (try SignedClickID.parse(signed).get().claims.click))
        let other = try fixture.tenant()
        #expect(try referral(fixture, org: other.org, token: token) == nil)
    }

    @Test func concurrentBindsOfOneClickAnswerOneToken() throws {
        let fixture = try F.migrated()
        let p = try program(fixture, code: "RACE2345")
        let signed = try click(fixture, "RACE2345", project: p.project)
        let answers = Answers()
        onThreads(8) { index in
            let response = fixture.bind(F.bindBody(project: p.project, click: signed), clientIP: "198.51.100.\(index)")
            answers.add(response.status, F.data(response)["appAccountToken"] as? String ?? "")
        }
        #expect(answers.statuses == Array(repeating: 200, count: 8) && answers.guids.count == 1)
        #expect(try fixture.events("ReferralBound", org: p.org) == 1)
    }

    @Test func concurrentBindsOfOneGuidThroughDifferentClicksKeepOneReferral() throws {
        let fixture = try F.migrated()
        let a = try program(fixture, code: "RACEA234")
        _ = try program(fixture, code: "RACEB234", tenant: (a.org, a.project, a.key))
        let clicks = try (0..<8).map { try click(fixture, $0 % 2 == 0 ? "RACEA234" : "RACEB234", project: a.project) }
        let answers = Answers()
        onThreads(8) { index in
            let response = fixture.bind(F.bindBody(project: a.project, click: clicks[index], guid: "racer"),
                                        clientIP: "198.51.100.\(index)")
            answers.add(response.status, bodyText(response))
        }
        // One referral; every answer reports it (the same token, offer and window).
        #expect(answers.statuses == Array(repeating: 200, count: 8) && answers.guids.count == 1)
        #expect(try fixture.events("ReferralBound", org: a.org) == 1)
        #expect(try fixture.events("AppAccountTokenMinted", org: a.org) == 1)
    }

    @Test func withAGuidTheReferralRidesTheGuidsOwnToken() throws {
        let fixture = try F.migrated()
        let p = try program(fixture, code: "GUYD2345")
        let minted = fixture.api.respond(to: Request(
            method: .post, path: "/public/app-account-token", query: [:], headers: Headers([]),
            body: Array(#"{"projectId":"\#(p.project)","guid":"device-1"}"#.utf8), clientIP: "198.51.100.5",
            remoteAddress: "198.51.100.5"))
        let token = try #require(F.data(minted)["appAccountToken"] as? String)
        let bound = fixture.bind(F.bindBody(project: p.project, click: try click(fixture, "GUYD2345",
                                                                                  project: p.project),
                                            guid: "device-1"))
        #expect(bound.status == 200 && F.data(bound)["appAccountToken"] as? String == token)
        // A guid no one has seen gets its token minted by bind, the same one app-account-token answers later.
        let fresh = fixture.bind(F.bindBody(project: p.project, code: "guyd2345", guid: "device-2"))
        let freshToken = try #require(F.data(fresh)["appAccountToken"] as? String)
        let later = fixture.api.respond(to: Request(
            method: .post, path: "/public/app-account-token", query: [:], headers: Headers([]),
            body: Array(#"{"projectId":"\#(p.project)","guid":"device-2"}"#.utf8), clientIP: "198.51.100.5",
            remoteAddress: "198.51.100.5"))
        #expect(F.data(later)["appAccountToken"] as? String == freshToken)
        #expect(try fixture.events("AppAccountTokenMinted", org: p.org) == 2)
        let guids = try fixture.owner().query(
            "SELECT guid FROM affiliate_referrals WHERE org_id = $1::uuid ORDER BY guid", [.text(p.org)]).rows
        #expect(guids.map { $0["guid"] } == ["device-1", "device-2"])
    }

    @Test func firstTouchWinsInsideTheWindowAndALaterBindReplacesItAfter() throws {
        let fixture = try F.migrated()
        let a = try program(fixture, code: "FRST2345", offer: "FROM_A")
        let b = try program(fixture, code: "LATER234", offer: "FROM_B", windowDays: 30,
                            tenant: (a.org, a.project, a.key))
        let clickA = try click(fixture, "FRST2345", project: a.project)
        let clickB = try click(fixture, "LATER234", project: a.project)
        let first = fixture.bind(F.bindBody(project: a.project, click: clickA, guid: "buyer-1"))
        #expect(first.status == 200 && F.data(first)["offerCode"] as? String == "FROM_A")
        let token = try #require(F.data(first)["appAccountToken"] as? String)
        // Inside A's window B's click and B's code change nothing: the answer reports A's referral.
        fixture.clock.set(F.start.addingTimeInterval(Self.window - 0.001))
        for body in [F.bindBody(project: a.project, click: clickB, guid: "buyer-1"),
                     F.bindBody(project: a.project, code: "LATER234", guid: "buyer-1")] {
            let held = fixture.bind(body)
            #expect(held.status == 200 && bodyText(held) == bodyText(first), "\(body)")
        }
        #expect(try fixture.events("ReferralBound", org: a.org) == 1)
        #expect(try fixture.owner().query(
            "SELECT count(*) AS n FROM affiliate_clicks WHERE org_id = $1::uuid AND source = 'code'",
            [.text(a.org)]).rows[0].int("n") == 0)
        #expect(try referral(fixture, org: a.org, token: token)?.affiliateId.description == a.affiliate)
        // From the instant A's window ends, B's click binds: a new ReferralBound replaces A's referral.
        let end = F.start.addingTimeInterval(Self.window)
        fixture.clock.set(end)
        let replaced = fixture.bind(F.bindBody(project: a.project, click: clickB, guid: "buyer-1"))
        #expect(replaced.status == 200)
        #expect(bodyText(replaced) == #"{"success":true,"data":{"appAccountToken":"\#(token)","offerCode":"FROM_B","#
            + #""expiresAt":"\#(PaymentFields.text(end.addingTimeInterval(30 * 86_400)))"}}"#)
        #expect(try fixture.events("ReferralBound", org: a.org) == 2)
        let now = try #require(try referral(fixture, org: a.org, token: token))
        #expect(now.affiliateId.description == b.affiliate && now.boundAt == end)
        // A's click expired with its window: binding it now is the uniform 404.
        let expired = fixture.bind(F.bindBody(project: a.project, click: clickA, guid: "buyer-2"))
        #expect(expired.status == 404)
    }

    @Test func aCodeBindRecordsAClickOfItsOwnThatTheReferralNames() throws {
        let fixture = try F.migrated()
        let p = try program(fixture, code: "CDE23456")
        let bound = fixture.bind(F.bindBody(project: p.project, code: " cde23456\\n"))
        #expect(bound.status == 200 && F.data(bound)["offerCode"] as? String == "SPRING50")
        let token = try #require(F.data(bound)["appAccountToken"] as? String)
        let row = try #require(try fixture.owner().query("""
            SELECT k.source, k.click_id = r.click_id AS named, k.app_account_token::text AS token
            FROM affiliate_clicks k, affiliate_referrals r WHERE k.org_id = $1::uuid AND r.org_id = $1::uuid
            """, [.text(p.org)]).rows.first)
        #expect(row["source"] == "code" && row["named"] == "t" && row["token"] == token)
        #expect(try fixture.events("AffiliateLinkClicked", org: p.org) == 1)
    }

    @Test func malformedBodiesAre400NamingTheFieldAndRecordNothing() throws {
        let fixture = try F.migrated()
        let p = try program(fixture, code: "BADS2345")
        let signed = try click(fixture, "BADS2345", project: p.project)
        let cases: [(String, String, String)] = [
            (F.bindBody(project: p.project), "VALIDATION_SIGNED_CLICK_ID_OR_REF_CODE_REQUIRED",
             "field 'signedClickId' must be given, or field 'refCode' (exactly one of the two)"),
            (#"{"projectId":"\#(p.project)","signedClickId":null,"refCode":null}"#,
             "VALIDATION_SIGNED_CLICK_ID_OR_REF_CODE_REQUIRED", "field 'signedClickId' must be given"),
            (F.bindBody(project: p.project, click: signed, code: "BADS2345"),
             "VALIDATION_SIGNED_CLICK_ID_OR_REF_CODE_REQUIRED",
             "field 'refCode' must be absent when field 'signedClickId' is given (exactly one of the two)"),
            (F.bindBody(project: p.project, click: "c1.abc.k.sig"), "VALIDATION_SIGNED_CLICK_ID_FORMAT",
             "field 'signedClickId' must be a click id as the affiliate link adds it (c1.…)"),
            (F.bindBody(project: p.project, click: "v2" + signed.dropFirst(2)), "VALIDATION_SIGNED_CLICK_ID_FORMAT",
             "field 'signedClickId' must"),
            (F.bindBody(project: p.project, code: "AB"), "VALIDATION_REF_CODE_FORMAT", "field 'refCode' must"),
            (F.bindBody(project: "p", code: "BADS2345"), "VALIDATION_PROJECT_ID_FORMAT", "field 'projectId' must"),
            (F.bindBody(project: p.project, code: "BADS2345", guid: "a b"), "VALIDATION_GUID_FORMAT",
             "field 'guid' must"),
            (#"{"signedClickId":"\#(signed)"}"#, "VALIDATION_FAILED", "field 'projectId' is required"),
            (#"{"projectId":"\#(p.project)","refCode":"BADS2345","ip":"1.2.3.4"}"#, "VALIDATION_FAILED",
             "field 'ip' is not a field of a bind"),
            (#"{"projectId":"\#(p.project)","refCode":7}"#, "VALIDATION_FAILED", "field 'refCode' must be a string"),
            ("[]", "INVALID_JSON", "the body must be a JSON object"),
        ]
        for (body, code, message) in cases {
            let response = fixture.bind(body)
            let json = jsonObject(response)
            #expect(response.status == 400 && json["code"] as? String == code, "\(body)")
            #expect((json["message"] as? String)?.hasPrefix(message) == true, "\(body): \(bodyText(response))")
        }
        #expect(fixture.api.bodyLimit(for: .post, path: "/v1/app-store/bind") == 1024)
        #expect(fixture.api.bodyLimit(for: .get, path: "/a/BADS2345") == 0)
        #expect(try fixture.events("ReferralBound", org: p.org) == 0)
        #expect(try fixture.count("affiliate_clicks", org: p.org) == 1)
    }

    @Test func everyUnusableClickOrCodeIsTheSame404AndRecordsNothing() throws {
        let fixture = try F.migrated()
        let a = try program(fixture, code: "GRPA2345")
        let b = try program(fixture, code: "GRPB2345")
        let sibling = try fixture.tenants.admin(["project", "create", "--org", a.org, "--name", "Sibling"]).json()
        let siblingProject = try #require(sibling["projectId"] as? String)
        let clickA = try click(fixture, "GRPA2345", project: a.project)
        let clickB = try click(fixture, "GRPB2345", project: b.project)
        let keys = TestIdentity.secrets().passKeys
        let claims = try SignedClickID.parse(clickA).get().claims
        // Signed with the deployment's key, but never recorded.
        let unrecorded = SignedClickID.issue(ClickFacts(
            click: ClickID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255) }), project: claims.project,
            affiliate: claims.affiliate, campaign: claims.campaign, source: .link, clickedAt: F.start,
            expiresAt: F.start.addingTimeInterval(86_400)), keys: keys)
        // Signed with a key this deployment does not have.
        let foreignKey = SignedClickID.issue(ClickFacts(
            click: claims.click, project: claims.project, affiliate: claims.affiliate, campaign: claims.campaign,
            source: .link, clickedAt: F.start, expiresAt: F.start.addingTimeInterval(86_400)),
            keys: IdentitySecrets.hmacKeys([("stranger", Array(repeating: 9, count: 32))]))
        func altered(_ text: String, at offset: Int) -> String {
            var characters = Array(text)
            characters[offset] = characters[offset] == "A" ? "B" : "A"
            return String(characters)
        }
        let tamperedPayload = altered(clickA, at: 10)
        let tamperedSignature = altered(clickA, at: clickA.count - 20)
        let bodies = [
            F.bindBody(project: UUID().uuidString.lowercased(), click: clickA),  // no such project
            F.bindBody(project: a.project, click: tamperedPayload),
            F.bindBody(project: a.project, click: tamperedSignature),
            F.bindBody(project: a.project, click: unrecorded),
            F.bindBody(project: a.project, click: foreignKey),
            F.bindBody(project: a.project, click: clickB),                       // another org's click
            F.bindBody(project: siblingProject, click: clickA),                  // another project's click
            F.bindBody(project: b.project, click: clickA),
            F.bindBody(project: a.project, code: "NNE23456"),                    // no such code
            F.bindBody(project: a.project, code: "GRPB2345"),                    // another org's code
            F.bindBody(project: siblingProject, code: "GRPA2345", guid: "g"),    // another project's code
        ]
        for body in bodies {
            let response = fixture.bind(body)
            #expect(response.status == 404, "\(body)")
            #expect(bodyText(response) == #"{"statusCode":404,"message":"no referral matches this click or code"}"#)
        }
        // Expired: authentic and recorded, but past the campaign's window.
        fixture.clock.set(F.start.addingTimeInterval(Self.window))
        #expect(bodyText(fixture.bind(F.bindBody(project: a.project, click: clickA)))
            == #"{"statusCode":404,"message":"no referral matches this click or code"}"#)
        for org in [a.org, b.org] {
            #expect(try fixture.events("ReferralBound", org: org) == 0)
            #expect(try fixture.events("AppAccountTokenMinted", org: org) == 0)
            #expect(try fixture.count("affiliate_clicks", org: org) == 1)
        }
    }

    @Test func aGuidOfAnotherOrganizationIsRefusedBeforeAnythingIsRecorded() throws {
        let fixture = try F.migrated()
        let a = try program(fixture, code: "HME23456")
        let b = try program(fixture, code: "AWAY2345")
        let paid = fixture.send(.post, "/s2s/v1/payments", key: a.key, body: PaymentTests.body(guid: "buyer-of-a"))
        #expect(paid.status == 200)
        let response = fixture.bind(F.bindBody(project: b.project, code: "AWAY2345", guid: "buyer-of-a"))
        #expect(response.status == 400)
        #expect(bodyText(response) == #"{"statusCode":400,"code":"VISITOR_ID_FOREIGN_PROJECT","# +
            #""message":"field 'guid' names a buyer of another organization"}"#)
        #expect(try fixture.events("ReferralBound", org: b.org) == 0)
        #expect(try fixture.count("affiliate_clicks", org: b.org) == 0)
        #expect(fixture.bind(F.bindBody(project: a.project, code: "HME23456", guid: "buyer-of-a")).status == 200)
    }

    @Test func tenPerMinutePerClientAddressThenRedisDownIs503() throws {
        let redis = try ScratchRedis()
        let fixture = try F.migrated(bindLimit: TestIdentity.uniqueLimit(count: 10), redisURL: redis.url)
        let p = try program(fixture, code: "LMTT2345")
        let body = F.bindBody(project: p.project, code: "LMTT2345", guid: "limited")
        let statuses = (0..<11).map { _ in fixture.bind(body, clientIP: "192.0.2.95").status }
        #expect(statuses == Array(repeating: 200, count: 10) + [429])
        let over = fixture.bind(body, clientIP: "192.0.2.95")
        #expect(over.headers["Retry-After"] != nil && jsonObject(over)["code"] as? String == "RATE_LIMITED")
        #expect(fixture.bind(body, clientIP: "192.0.2.96").status == 200)
        #expect(Environment.defaultBindLimit == RateLimit.perWindow(name: "bind", count: 10, seconds: 60,
                                                                     onFailure: .closed))
        redis.pause()
        defer { redis.resume() }
        let down = fixture.bind(body, clientIP: "192.0.2.97")
        #expect(down.status == 503 && down.headers["Retry-After"] != nil)
        #expect(bodyText(down) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
            #""message":"rate limiting is unavailable; retry later"}"#)
    }

    @Test func withoutIdentitySecretsBindAnswers503() throws {
        let fixture = try F.migrated(identity: nil)
        let t = try fixture.tenant()
        let response = fixture.bind(F.bindBody(project: t.project, code: "ANY23456"))
        #expect(response.status == 503 && response.headers["Retry-After"] == "60")
    }
}
