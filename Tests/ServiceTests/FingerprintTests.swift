@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import TestSupport
import Testing

/// Fingerprint capture (`POST /public/handoff/fingerprint`) and `POST /public/handoff/resolve-by-fingerprint`
/// (issue 5), with the clock injected.
@Suite struct FingerprintTests {
    typealias F = FingerprintFixture
    static let guidB = "1f8fad5b-d9cb-469f-a165-70867728950e"

    @Test func anExactMatchAnswersTheGuidOnceAndKeepsNoClearIPOrUserAgent() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(3600)
        let answer = world.resolve(world.probe(screen: "852x393", language: "ru", bundleId: F.bundle))
        #expect(answer.status == 200)
        #expect(bodyText(answer) == F.found(PaymentTests.guidA, "fingerprint"))
        #expect(answer.headers["Content-Type"] == "application/json")
        // Spent: the same question again is the one 404, and the row is gone.
        let again = world.resolve(world.probe())
        #expect(again.status == 404 && bodyText(again) == F.notFound)
        #expect(try world.rows().isEmpty)
        #expect(try world.count("FingerprintRecorded") == 1 && world.count("FingerprintMatched") == 1)

        let owner = try world.fixture.ownerConnection()
        func data(_ type: String) throws -> (text: String, fields: [String: Any]) {
            let text = try owner.query("SELECT data::text AS data FROM events WHERE org_id = $1::uuid AND "
                                       + "event_type = $2", [.text(world.tenant.org), .text(type)]).rows[0]
                .string("data")
            return (text, (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:])
        }
        let recorded = try data("FingerprintRecorded")
        let ipHash = try #require(LookupHash.ipAddress("203.0.113.20", pepper: TestIdentity.secrets().lookupPepper))
        #expect(recorded.fields["ipHash"] as? String == ipHash)
        #expect(!recorded.text.contains("203.0.113.20") && !recorded.text.contains("iPhone"))
        #expect((recorded.fields["userAgent"] as? String)?.hasPrefix("pd1.") == true)
        #expect(recorded.fields["platform"] as? String == "ios" && recorded.fields["screen"] as? String == "393x852")
        #expect(recorded.fields["paidAt"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(recorded.fields["expiresAt"] as? String == "2027-01-15T10:00:00.250Z")
        let matched = try data("FingerprintMatched").fields
        #expect(matched["matchMethod"] as? String == "fingerprint" && matched["paymentId"] as? String == "pi_1")
        #expect(matched["matchedAt"] as? String == "2027-01-15T09:00:00.250Z")
    }

    @Test func theExactWindowIncludesTwoHoursAfterThePaymentAndNotAMillisecondMore() throws {
        let world = try F()
        let first = try world.pay(paymentId: "pi_edge")
        #expect(world.capture(first.token, ip: "203.0.113.31").status == 204)
        world.clock.advance(7200)
        #expect(bodyText(world.resolve(world.probe(), ip: "203.0.113.31"))
            == F.found(PaymentTests.guidA, "fingerprint"))

        let late = try F()
        let second = try late.pay(paymentId: "pi_late")
        #expect(late.capture(second.token, ip: "203.0.113.32").status == 204)
        late.clock.advance(7200.001)
        #expect(bodyText(late.resolve(late.probe(), ip: "203.0.113.32")) == F.notFound)
    }

    @Test func withoutATimezoneTheIPMatchHoldsForThirtyMinutesAndNotAMillisecondMore() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(1800)
        #expect(bodyText(world.resolve(world.probe(timezone: nil))) == F.found(PaymentTests.guidA, "ip"))

        let late = try F()
        let other = try late.pay()
        #expect(late.capture(other.token).status == 204)
        late.clock.advance(1800.001)
        #expect(bodyText(late.resolve(late.probe(timezone: nil))) == F.notFound)
        // The exact match still works then.
        #expect(bodyText(late.resolve(late.probe())) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func aContradictingAttributeNeverMatchesEvenFromTheSameIP() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(60)
        for body in [world.probe(platform: "android"), world.probe(screen: "390x844"),
                     world.probe(timezone: "Asia/Tokyo")] {
            #expect(bodyText(world.resolve(body)) == F.notFound, "\(body)")
        }
        #expect(bodyText(world.resolve(world.probe(), ip: "203.0.113.99")) == F.notFound)
        #expect(bodyText(world.resolve(world.probe())) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func twoBuyersTheLanguageDoesNotTellApartAre404ForBothAndTheLanguageCanTellThemApart() throws {
        let world = try F()
        let a = try world.pay(guid: PaymentTests.guidA, paymentId: "pi_a")
        let b = try world.pay(guid: Self.guidB, paymentId: "pi_b")
        #expect(world.capture(a.token, language: "ru-RU").status == 204)
        #expect(world.capture(b.token, language: "en-US").status == 204)
        world.clock.advance(60)
        #expect(bodyText(world.resolve(world.probe(language: nil))) == F.notFound)
        #expect(bodyText(world.resolve(world.probe(language: "de"))) == F.notFound)
        #expect(bodyText(world.resolve(world.probe(timezone: nil))) == F.notFound)
        #expect(try world.count("FingerprintMatched") == 0)
        #expect(bodyText(world.resolve(world.probe(language: "en"))) == F.found(Self.guidB, "fingerprint"))
        // Once b is spent, a is the only candidate left.
        #expect(bodyText(world.resolve(world.probe(language: nil))) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func aProjectWithFingerprintingOffCollectsNothingAndResolvesNothing() throws {
        let world = try F(settings: ["--android-package", F.bundle])
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        #expect(try world.count("FingerprintRecorded") == 0)
        #expect(try world.rows().isEmpty)
        let page = world.api.respond(to: Request(method: .get, path: "/done/\(paid.token)"))
        #expect(page.status == 200 && !bodyText(page).contains("<script") && !bodyText(page).contains("data-token"))
        #expect(bodyText(world.resolve(world.probe())) == F.notFound)
    }

    @Test func missesUnknownDisabledForeignAndOtherBundleProjectsGiveOneByteIdentical404() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        let other = try world.fixture.tenant(["--fingerprint", "on"])
        let disabled = try world.fixture.tenant()
        world.clock.advance(60)
        let bodies = [
            world.probe(projectId: "5b0f1f3e-4c1a-4c47-9d5b-0a8d3f3e1a11"), world.probe(projectId: "not-a-project"),
            world.probe(projectId: disabled.project), world.probe(projectId: other.project),
            world.probe(bundleId: "com.example.other"),
        ]
        for body in bodies {
            let response = world.resolve(body)
            #expect(response.status == 404 && response.body == Array(F.notFound.utf8), "\(body)")
            #expect(response.headers["Retry-After"] == nil)
        }
        #expect(bodyText(world.resolve(world.probe(bundleId: F.bundle))) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func anAndroidProbeIsCheckedAgainstTheAndroidPackageNotTheIOSBundleID() throws {
        let world = try F(settings: ["--fingerprint", "on", "--android-package", "com.example.droid",
                                     "--ios-bundle-id", "com.example.ios"])
        let paid = try world.pay()
        #expect(world.capture(paid.token, userAgent: F.android).status == 204)
        world.clock.advance(60)
        // Same IP, platform, screen and timezone: only the package can refuse these.
        for bundleId in ["com.example.other", "com.example.ios"] {
            let response = world.resolve(world.probe(platform: "android", bundleId: bundleId))
            #expect(response.status == 404 && response.body == Array(F.notFound.utf8), "\(bundleId)")
        }
        #expect(bodyText(world.resolve(world.probe(platform: "android", bundleId: "com.example.droid")))
            == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func turningFingerprintingOffGivesTheOne404AndOnAgainLetsALiveFingerprintMatch() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(60)
        func patch(_ on: Bool) -> Int {
            world.api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: world.tenant.key,
                                             body: #"{"fingerprint":\#(on)}"#)).status
        }
        #expect(patch(false) == 200)
        let off = world.resolve(world.probe())
        #expect(off.status == 404 && off.body == Array(F.notFound.utf8))
        // While off, a visit of the page records nothing; the fingerprint captured before stays (until it expires).
        #expect(world.capture(paid.token, screen: "390x844").status == 204)
        #expect(try world.count("FingerprintRecorded") == 1 && world.rows().count == 1)
        #expect(try world.count("FingerprintMatched") == 0)
        // On again (within the payment's 2 h): the fingerprint captured while it was on matches (docs/fingerprint.md).
        #expect(patch(true) == 200)
        #expect(bodyText(world.resolve(world.probe())) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func capturesRacingAMatchNeverMatchTwiceNorBringTheRowBack() throws {
        let world = try F(poolSize: 12)
        let rounds = 40
        for round in 0..<rounds {
            let ip = "198.51.100.\(round + 1)"
            let paymentId = "pi_race_\(round)"
            let paid = try world.pay(paymentId: paymentId)
            #expect(world.capture(paid.token, ip: ip).status == 204)
            let statuses = Statuses()
            // Threads of their own: `concurrentPerform` runs only as many lanes at once as there are cores.
            let group = DispatchGroup()
            for lane in 0..<10 {
                group.enter()
                Thread {
                    let response = lane % 5 == 2 ? world.resolve(world.probe(), ip: ip)
                        : world.capture(paid.token, ip: ip)
                    statuses.add(response.status)
                    group.leave()
                }.start()
            }
            group.wait()
            #expect(statuses.sorted == [200] + Array(repeating: 204, count: 8) + [404], "round \(round)")
            #expect(try !world.rows().contains { try $0.string("payment_id") == paymentId }, "round \(round)")
            #expect(world.resolve(world.probe(), ip: ip).status == 404, "round \(round)")
        }
        #expect(try world.count("FingerprintMatched") == rounds)
        let owner = try world.fixture.ownerConnection()
        let twice = try owner.query("""
            SELECT count(*) AS n FROM (SELECT stream_id FROM events WHERE event_type = 'FingerprintMatched'
                GROUP BY stream_id HAVING count(*) > 1) AS s
            """).rows[0].int("n")
        #expect(twice == 0)
        // After the match no FingerprintRecorded follows in any stream.
        let late = try owner.query("""
            SELECT count(*) AS n FROM events r JOIN events m ON m.org_id = r.org_id AND m.stream_id = r.stream_id
            WHERE r.event_type = 'FingerprintRecorded' AND m.event_type = 'FingerprintMatched'
                AND r.stream_version > m.stream_version
            """).rows[0].int("n")
        #expect(late == 0)
    }

    @Test func requiredAndMalformedFieldsAre400NamingTheField() throws {
        let world = try F()
        let cases: [(String, String)] = [
            (world.probe(projectId: nil).replacingOccurrences(of: #""projectId":"\#(world.tenant.project)","#,
                                                                with: ""),
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'projectId' is required"}"#),
            (world.probe(platform: nil),
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'platform' is required"}"#),
            (world.probe(osVersion: nil),
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'osVersion' is required"}"#),
            (world.probe(screen: nil),
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'screen' is required"}"#),
            (world.probe(platform: "windows"),
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'platform' must be ios or android"}"#),
            (world.probe(screen: "wide"), #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'screen' must be the screen size in CSS pixels as WxH, e.g. 393x852"}"#),
            (world.probe(timezone: "Europe/<x>"), #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'timezone' must be an IANA time zone name such as Europe/Berlin"}"#),
            (world.probe(bundleId: "com.example/app"), #"{"statusCode":400,"code":"VALIDATION_BUNDLE_ID_FORMAT","# +
                #""message":"field 'bundleId' must be a bundle id or package name: "# +
                #"letters, digits, '.', '-' or '_'"}"#),
            (#"{"projectId":"x","platform":"ios","osVersion":"1","screen":"1x2","idfa":"x"}"#,
             #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'idfa' is not a field of a fingerprint probe"}"#),
            (#"{"projectId":1,"platform":"ios","osVersion":"1","screen":"1x2"}"#,
             #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'projectId' must be a string"}"#),
        ]
        for (body, expected) in cases {
            let response = world.resolve(body)
            #expect(response.status == 400 && bodyText(response) == expected, "\(body)")
        }
        #expect(world.api.bodyLimit(for: .post, path: "/public/handoff/resolve-by-fingerprint") == 1024)
        #expect(world.api.bodyLimit(for: .post, path: "/public/handoff/fingerprint") == 1024)
        #expect(world.api.bodyLimit(for: .get, path: "/done/abc") == 0)
    }

    @Test func elevenResolvesAMinuteFromOneIPAnswer429WithRetryAfterAndAnotherIPStillPasses() throws {
        let world = try F(resolveLimit: TestIdentity.uniqueLimit(count: 10))
        let statuses = (0..<11).map { _ in world.resolve(world.probe(), ip: "192.0.2.70").status }
        #expect(statuses == Array(repeating: 404, count: 10) + [429])
        let limited = world.resolve(world.probe(), ip: "192.0.2.70")
        #expect(limited.status == 429 && limited.headers["Retry-After"] != nil)
        #expect(world.resolve(world.probe(), ip: "192.0.2.71").status == 404)
        #expect(Environment.defaultResolveByFingerprintLimit == RateLimit.perWindow(
            name: "resolve-by-fingerprint", count: 10, seconds: 60, onFailure: .closed))
    }

    @Test func whileRedisIsStoppedResolveAndCaptureFailClosedWith503() throws {
        let redis = try ScratchRedis()
        let world = try F(redisURL: redis.url)
        let paid = try world.pay()
        redis.pause()
        defer { redis.resume() }
        for response in [world.resolve(world.probe()), world.capture(paid.token)] {
            #expect(response.status == 503 && response.headers["Retry-After"] == "5")
            #expect(bodyText(response) == #"{"statusCode":503,"code":"SERVICE_UNAVAILABLE","# +
                #""message":"rate limiting is unavailable; retry later"}"#)
        }
    }

    @Test func withoutIdentitySecretsBothEndpointsAnswer503AndThePageIsThe404() throws {
        let world = try F()
        let paid = try world.pay()
        let api = try F.responder(world.fixture, clock: world.clock, identity: nil)
        let probe = api.respond(to: Request(method: .post, path: "/public/handoff/resolve-by-fingerprint",
                                            body: Array(world.probe().utf8)))
        #expect(probe.status == 503 && probe.headers["Retry-After"] == "60")
        let capture = api.respond(to: Request(method: .post, path: "/public/handoff/fingerprint",
                                              body: Array(#"{"token":"\#(paid.token)","screen":"1x2"}"#.utf8)))
        #expect(capture.status == 503)
        let page = api.respond(to: Request(method: .get, path: "/done/\(paid.token)"))
        #expect(page.status == 404 && page.body == PostPaymentPage.notFound.body)
    }

    @Test func concurrentResolvesSpendOneFingerprintExactlyOnce() throws {
        let world = try F(poolSize: 8)
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(60)
        let statuses = Statuses()
        onThreads(16) { _ in
            statuses.add(world.resolve(world.probe()).status)
        }
        #expect(statuses.sorted == [200] + Array(repeating: 404, count: 15))
        #expect(try world.count("FingerprintMatched") == 1)
    }

    @Test func captureRefusalsAndAVisitAfterTheMatchRecordsNothing() throws {
        let world = try F()
        let paid = try world.pay()
        let tampered = String(paid.token.dropLast()) + (paid.token.hasSuffix("A") ? "B" : "A")
        let unknown = world.capture(tampered)
        #expect(unknown.status == 404
            && bodyText(unknown) == #"{"statusCode":404,"message":"no page has this token"}"#)
        #expect(bodyText(world.capture(paid.token, screen: "0x0")) == #"{"statusCode":400,"code":"VALIDATION_FAILED","#
            + #""message":"field 'screen' must be the screen size in CSS pixels as WxH, e.g. 393x852"}"#)
        #expect(bodyText(world.capture(paid.token, body: #"{"screen":"1x2"}"#))
            == #"{"statusCode":400,"code":"VALIDATION_FAILED","message":"field 'token' is required"}"#)
        #expect(bodyText(world.capture(paid.token, body: #"{"token":"t","screen":"1x2","ip":"1.2.3.4"}"#))
            == #"{"statusCode":400,"code":"VALIDATION_FAILED","# +
                #""message":"field 'ip' is not a field of a fingerprint"}"#)
        #expect(try world.count("FingerprintRecorded") == 0)

        // A second visit replaces the payment's row; after the match a visit records nothing.
        #expect(world.capture(paid.token, screen: "390x844").status == 204)
        #expect(world.capture(paid.token, userAgent: F.android).status == 204)
        #expect(try world.rows().map { try $0.string("screen") + "/" + $0.string("platform") } == ["393x852/android"])
        #expect(bodyText(world.resolve(world.probe(platform: "android")))
            == F.found(PaymentTests.guidA, "fingerprint"))
        #expect(world.capture(paid.token).status == 204)
        #expect(try world.count("FingerprintRecorded") == 2 && world.rows().isEmpty)
        // Two hours after the payment nothing is recorded any more (it could never match).
        let later = try world.pay(paymentId: "pi_2")
        world.clock.advance(7200)
        #expect(world.capture(later.token).status == 204)
        #expect(try world.count("FingerprintRecorded") == 2)
    }

    @Test func expiredFingerprintsAreDeletedByTheNextFingerprintEventOfTheirOrganization() throws {
        let world = try F()
        let first = try world.pay(paymentId: "pi_old")
        #expect(world.capture(first.token).status == 204)
        world.clock.advance(7200.5)
        let second = try world.pay(paymentId: "pi_new")
        #expect(world.capture(second.token, ip: "203.0.113.40").status == 204)
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_new"])
    }

    @Test func expiredRowsOfAnyOrganizationAreSweptByTheNextCaptureOrResolveOfAnother() throws {
        let world = try F()
        let owner = try world.fixture.ownerConnection()
        let quiet = try world.fixture.tenant(["--fingerprint", "on"])
        for (payment, expiry) in [("pi_expired", "now() - interval '2 hours'"),
                                  ("pi_just_expired", "now() - interval '10 seconds'"),
                                  ("pi_live", "now() + interval '1 hour'")] {
            try owner.query("""
                INSERT INTO fingerprints (org_id, payment_id, project_id, guid, platform, screen, ip_hash, paid_at,
                    expires_at, recorded_at)
                VALUES ($1::uuid, $2, $3::uuid, $4::uuid, 'ios', '393x852', repeat('a', 64),
                    \(expiry) - interval '2 hours', \(expiry), \(expiry) - interval '1 hour')
                """, [.text(quiet.org), .text(payment), .text(quiet.project), .text(PaymentTests.guidA)])
        }
        // The quiet org sends nothing; a resolve in another org sweeps its expired row (not the one within the
        // minute's margin, nor the live one).
        #expect(world.resolve(world.probe()).status == 404)
        let left = try owner.query("SELECT payment_id FROM fingerprints WHERE org_id = $1::uuid ORDER BY payment_id",
                                   [.text(quiet.org)]).rows.map { try $0.string("payment_id") }
        #expect(left == ["pi_just_expired", "pi_live"])
        // At most once per interval per process.
        let sweep = FingerprintSweep(interval: 3600, batch: 1)
        #expect(sweep.runIfDue(on: world.api.environment.model.log.pool) == 0)
        #expect(sweep.runIfDue(on: world.api.environment.model.log.pool) == nil)
    }

    @Test func replayDoesNotBringBackAFingerprintThatExpiredByTheDatabaseClock() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        let store = world.api.environment.model.log
        let stale = FingerprintRecorded(
            paymentId: "pi_stale", guid: PaymentTests.guidA, projectId: world.tenant.project, platform: "ios",
            screen: "393x852", timezone: nil, language: nil, ipHash: String(repeating: "b", count: 64),
            userAgent: nil, paidAt: "2020-01-01T08:00:00.000Z", expiresAt: "2020-01-01T10:00:00.000Z",
            recordedAt: "2020-01-01T08:10:00.000Z")
        let org = try #require(UUID(uuidString: world.tenant.org))
        _ = try store.transact { transaction in
            try transaction.append(org: org, stream: FingerprintStreams.fingerprint(paymentId: "pi_stale"),
                                   expectedVersion: .noStream, events: [try NewEvent(stale)],
                                   metadata: EventMetadata(actor: .system("test")))
        }
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_1"])
        let owner = try world.fixture.ownerConnection()
        try owner.execute("DELETE FROM fingerprints")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_1"])
    }

    @Test func anOversizedFingerprintCaptureIs413InTheErrorShape() throws {
        let world = try F()
        let request = Request(method: .post, path: "/public/handoff/fingerprint",
                              body: Array(repeating: UInt8(ascii: " "), count: 1025))
        let response = world.api.payloadTooLarge(request)
        #expect(response.status == 413 && response.headers["Content-Type"] == "application/json")
        #expect(bodyText(response) == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
            #""message":"the body is larger than the 1024 bytes this endpoint accepts"}"#)
    }

    @Test func anOversizedResolveByFingerprintIs413InTheErrorShape() throws {
        let world = try F()
        let request = Request(method: .post, path: "/public/handoff/resolve-by-fingerprint",
                              body: Array(repeating: UInt8(ascii: " "), count: 1025))
        let response = world.api.payloadTooLarge(request)
        #expect(response.status == 413 && response.headers["Content-Type"] == "application/json")
        #expect(bodyText(response) == #"{"statusCode":413,"code":"PAYLOAD_TOO_LARGE","# +
            #""message":"the body is larger than the 1024 bytes this endpoint accepts"}"#)
    }

    @Test func replayRebuildsTheFingerprintTableEqualToTheLiveOne() throws {
        let world = try F()
        for index in 0..<4 {
            let paid = try world.pay(guid: index % 2 == 0 ? PaymentTests.guidA : Self.guidB, paymentId: "pi_\(index)")
            #expect(world.capture(paid.token, ip: "203.0.113.\(50 + index)").status == 204)
        }
        world.clock.advance(60)
        #expect(world.resolve(world.probe(), ip: "203.0.113.51").status == 200)
        let owner = try world.fixture.ownerConnection()
        let snapshot = { try owner.query("SELECT * FROM fingerprints ORDER BY org_id, payment_id").rows.map(\.values) }
        let live = try snapshot()
        #expect(live.count == 3)
        try owner.execute("DELETE FROM fingerprints")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("fingerprints"))
        #expect(try snapshot() == live)
        let grants = try owner.query("""
            SELECT string_agg(privilege_type, ',' ORDER BY privilege_type) AS p
            FROM information_schema.table_privileges WHERE table_name = 'fingerprints' AND grantee = 'handoff_app'
            """).rows[0]["p"]
        #expect(grants == "DELETE,INSERT,SELECT,UPDATE")
    }
}

/// Statuses collected from concurrent requests.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func add(_ status: Int) { lock.lock(); values.append(status); lock.unlock() }
    var sorted: [Int] { lock.lock(); defer { lock.unlock() }; return values.sorted() }
}
