import API
import Commands
import Crypto
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /v1/app-store/assn/{surfaceId}` over the API edge (issue 15, "ASSN intake for servers that forward"): every
/// signed request is built by Tests/Peers/assn_client.py from the issue's text; Apple's JWS are signed with the test
/// chain. Refused requests leave no trace.
@Suite struct SurfaceIntakeTests {
    static let unauthorizedSignature = #"{"statusCode":401,"code":"UNAUTHORIZED","message":"header 'x-ea-signature' "#
        + #"does not verify with the surface's forwarding secret"}"#

    @Test func aForwardIsVerifiedAppliedAndNeverForwardedOnAndItsRepeatAnswersTheSame() throws {
        let fixture = try SurfaceFixture.migrated()
        // The app forwards its own store URL's notifications somewhere: a forwarded one must not go there.
        let app = try fixture.store.app(#"{"platform":"ios","bundleId":"com.example","appAppleId":1234,"#
            + #""forwardUrl":"https://hooks.example.com/store"}"#)
        let surface = try fixture.surface(app: app.id)
        let guid = fixture.store.buyer()
        let body = AppleIntakeTests.notification("SUBSCRIBED", token: fixture.store.appAccountToken(guid),
                                                 expiresDate: 1_893_456_000_000)
        let jws = SurfaceFixture.signedPayload(of: body)
        let built = try AssnClient(secret: surface.secret, signedPayload: jws).build()
        // JSON.stringify({ signedPayload }) of a JWS: the key, the JWS, no spaces.
        #expect(built.body == Array(#"{"signedPayload":"\#(jws)"}"#.utf8))
        #expect(built.headers.map(\.0) == ["content-type", "x-ea-timestamp", "x-ea-signature"])

        let first = fixture.post(surface: surface.id, body: built.body, headers: built.headers)
        #expect(first.status == 200 && first.body.isEmpty)
        let entitlements = fixture.store.entitlements(guid)
        #expect(entitlements.count == 1 && entitlements.first?["status"] as? String == "active")
        #expect(entitlements.first?["expiresAt"] as? String == "2030-01-01T00:00:00.000Z")
        let received = try fixture.store.events("StoreNotificationReceived")
        #expect(received.count == 1 && received[0].stream == "store-\(app.id)")
        #expect(received[0].data.contains(#""destinations": []"#) && received[0].data.contains(#""verified": true"#))
        #expect(try fixture.store.events("PaymentRecorded").count == 1)
        let owner = try fixture.apps.tenants.ownerConnection()
        let actor = try owner.query("""
            SELECT metadata->'actor'->>'id' AS id FROM events
            WHERE org_id = $1::uuid AND event_type = 'StoreNotificationReceived'
            """, [.text(fixture.tenant.org)]).rows.first?.string("id")
        #expect(actor == "surface-\(surface.id)")

        let again = fixture.post(surface: surface.id, body: built.body, headers: built.headers)
        #expect(again.status == 200 && again.body == first.body)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 1)
        #expect(try fixture.store.events("PaymentRecorded").count == 1)
        // The same app's own store URL does forward: its notification names the destination.
        let direct = AppleIntakeTests.body(AppleSigner.test.sign(ApplePayloads.notification(type: "TEST")))
        #expect(fixture.store.post("apple", token: app.token, body: direct).status == 200)
        let destinations = try #require(try fixture.apps.model.lookup.app(
            try AppID.parse(app.id).get(), org: try OrgID.parse(fixture.tenant.org).get())?.state.destinations)
        #expect(destinations.count == 1)
        let both = try fixture.store.events("StoreNotificationReceived")
        #expect(both.count == 2 && both[1].data.contains(#""destinations": ["\#(destinations[0].id)"]"#))
    }

    @Test func aTamperedTimestampBodyOrSignatureAnswers401AndRecordsNothing() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let other = try fixture.surface(app: app.id)
        let token = fixture.store.appAccountToken(fixture.store.buyer())
        let body = AppleIntakeTests.notification("SUBSCRIBED", token: token)
        for tamper in ["timestamp", "body", "signature"] {
            let response = try fixture.forward(surface: surface.id, secret: surface.secret, body: body, tamper: tamper)
            #expect(response.status == 401, "\(tamper)")
            #expect(bodyText(response) == Self.unauthorizedSignature, "\(tamper)")
        }
        // Another surface's secret, even of the same app, does not sign for this one.
        #expect(try fixture.forward(surface: surface.id, secret: other.secret, body: body).status == 401)
        #expect(try fixture.store.events("StoreNotificationReceived").isEmpty)
        // Untampered, the same notification is taken.
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: body).status == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 1)
    }

    @Test func missingOrMalformedHeadersAnswer401NamingTheHeader() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let body = AppleIntakeTests.body(AppleSigner.test.sign(ApplePayloads.notification(type: "TEST")))
        let built = try AssnClient(secret: surface.secret, signedPayload: SurfaceFixture.signedPayload(of: body))
            .build()
        let timestamp = try #require(built.headers.first { $0.0 == "x-ea-timestamp" }?.1)
        let signature = try #require(built.headers.first { $0.0 == "x-ea-signature" }?.1)
        let cases: [([(String, String)], String)] = [
            ([("x-ea-signature", signature)], "header 'x-ea-timestamp' is required"),
            ([("x-ea-timestamp", timestamp)], "header 'x-ea-signature' is required"),
            ([("x-ea-timestamp", "+" + timestamp), ("x-ea-signature", signature)],
             "header 'x-ea-timestamp' must be unix seconds (1 to 12 digits)"),
            ([("x-ea-timestamp", "1" + String(repeating: "0", count: 12)), ("x-ea-signature", signature)],
             "header 'x-ea-timestamp' must be unix seconds (1 to 12 digits)"),
            ([("x-ea-timestamp", timestamp), ("x-ea-signature", String(signature.dropFirst(7)))],
             "header 'x-ea-signature' must be sha256= and 64 hex digits"),
            ([("x-ea-timestamp", timestamp), ("x-ea-signature", signature + "0")],
             "header 'x-ea-signature' must be sha256= and 64 hex digits"),
            ([("x-ea-timestamp", timestamp), ("x-ea-signature", "sha1=" + signature.dropFirst(7))],
             "header 'x-ea-signature' must be sha256= and 64 hex digits"),
        ]
        for (headers, message) in cases {
            let response = fixture.post(surface: surface.id, body: built.body, headers: headers)
            #expect(bodyText(response) == #"{"statusCode":401,"code":"UNAUTHORIZED","message":"\#(message)"}"#)
        }
        // Hex digits in upper case are the same signature.
        let upper = fixture.post(surface: surface.id, body: built.body, headers: [
            ("x-ea-timestamp", timestamp), ("x-ea-signature", "sha256=" + signature.dropFirst(7).uppercased()),
        ])
        #expect(upper.status == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 1)
    }

    @Test func retriesUpTo72HoursOldAreTakenAndOlderOrFurtherAheadThan5MinutesAreNot() throws {
        let now = Date(timeIntervalSince1970: TimeInterval(SurfaceFixture.seconds(Date())))
        let fixture = try SurfaceFixture.migrated(clock: { now })
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let guid = fixture.store.buyer()
        let body = AppleIntakeTests.notification("SUBSCRIBED", token: fixture.store.appAccountToken(guid))
        let seconds = SurfaceFixture.seconds(now)
        func forward(_ timestamp: Int64) throws -> Response {
            try fixture.forward(surface: surface.id, secret: surface.secret, body: body, timestamp: timestamp)
        }
        let first = try forward(seconds)
        #expect(first.status == 200)
        // A retry of the same bytes 71 hours later, then at the very edge: taken, nothing new recorded.
        for age: Int64 in [71 * 3600, 72 * 3600] {
            let retry = try forward(seconds - age)
            #expect(retry.status == 200 && retry.body == first.body, "\(age)")
        }
        #expect(try fixture.store.events("StoreNotificationReceived").count == 1)
        let tooOld = try forward(seconds - 72 * 3600 - 1)
        #expect(bodyText(tooOld) == #"{"statusCode":401,"code":"UNAUTHORIZED","#
            + #""message":"header 'x-ea-timestamp' is more than 72 hours in the past"}"#)
        #expect(try forward(seconds - 73 * 3600).status == 401)
        #expect(try forward(seconds + 300).status == 200)
        let ahead = try forward(seconds + 301)
        #expect(bodyText(ahead) == #"{"statusCode":401,"code":"UNAUTHORIZED","#
            + #""message":"header 'x-ea-timestamp' is more than 300 seconds in the future"}"#)
        #expect(try forward(seconds + 360).status == 401)

        // A first delivery whose timestamp is old (its earlier attempts never arrived) is recorded like any other.
        let late = AppleIntakeTests.notification("DID_RENEW", token: fixture.store.appAccountToken(guid))
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: late,
                                    timestamp: seconds - 71 * 3600).status == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 2)
    }

    @Test func theWindowFollowsItsSetting() throws {
        let now = Date(timeIntervalSince1970: TimeInterval(SurfaceFixture.seconds(Date())))
        let fixture = try SurfaceFixture.migrated(clock: { now }, window: ForwardedTimestampWindow(maxAgeHours: 2))
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let body = AppleIntakeTests.body(AppleSigner.test.sign(ApplePayloads.notification(type: "TEST")))
        let seconds = SurfaceFixture.seconds(now)
        let old = try fixture.forward(surface: surface.id, secret: surface.secret, body: body,
                                      timestamp: seconds - 3 * 3600)
        #expect(bodyText(old) == #"{"statusCode":401,"code":"UNAUTHORIZED","#
            + #""message":"header 'x-ea-timestamp' is more than 2 hours in the past"}"#)
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: body,
                                    timestamp: seconds - 2 * 3600).status == 200)
    }

    @Test func afterARotationThePreviousSecretVerifiesDuringTheGraceOnly() throws {
        let start = Date(timeIntervalSince1970: TimeInterval(SurfaceFixture.seconds(Date())))
        let clock = SettableClock(start)
        let fixture = try SurfaceFixture.migrated(clock: { clock.now() })
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let id = try SurfaceID.parse(surface.id).get()
        let metadata = EventMetadata(actor: .admin("test"))
        let rotated = try fixture.surfaces.rotateSecret.run(id, graceHours: 24, now: start, metadata: metadata)
        let fresh = rotated.secret.text
        #expect(fresh != surface.secret && fresh.hasPrefix("fwd_"))
        #expect(rotated.surface.previousSecretValidUntil == PaymentFields.text(start.addingTimeInterval(24 * 3600)))
        func forward(_ secret: String) throws -> Int {
            let body = AppleIntakeTests.body(AppleSigner.test.sign(ApplePayloads.notification(type: "TEST")))
            return try fixture.forward(surface: surface.id, secret: secret, body: body,
                                       timestamp: SurfaceFixture.seconds(clock.now())).status
        }
        #expect(try forward(surface.secret) == 200)
        #expect(try forward(fresh) == 200)
        clock.set(start.addingTimeInterval(24 * 3600 - 1))
        #expect(try forward(surface.secret) == 200)
        clock.set(start.addingTimeInterval(24 * 3600))
        #expect(try forward(surface.secret) == 401)
        #expect(try forward(fresh) == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 4)

        // Rotating again ends the grace of the secret before at once; with 0 hours the replaced one stops too.
        let again = try fixture.surfaces.rotateSecret.run(id, graceHours: 0, now: clock.now(), metadata: metadata)
        #expect(try forward(fresh) == 401)
        #expect(try forward(surface.secret) == 401)
        #expect(try forward(again.secret.text) == 200)
        #expect(try fixture.store.events("SurfaceSecretRotated").count == 2)
    }

    @Test func aNotificationReceivedAtTheStoreURLAndAtTheSurfaceCountsOnce() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let guid = fixture.store.buyer()
        let token = fixture.store.appAccountToken(guid)
        let purchase = AppleIntakeTests.notification("SUBSCRIBED", token: token, expiresDate: 1_893_456_000_000)
        #expect(fixture.store.post("apple", token: app.token, body: purchase).status == 200)
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: purchase).status == 200)
        // And the other way round.
        let renewal = AppleIntakeTests.notification("DID_RENEW", token: token)
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: renewal).status == 200)
        #expect(fixture.store.post("apple", token: app.token, body: renewal).status == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 2)
        #expect(try fixture.store.events("PaymentRecorded").count == 1)
        #expect(try fixture.store.events("PaymentRenewed").count == 1)
        #expect(fixture.store.entitlements(guid).first?["expiresAt"] as? String == "2030-02-01T00:00:00.000Z")
    }

    @Test func surfaceIdsAreGlobalSoAnotherOrganizationsSurfaceIsReachedButNeverWithoutItsOwnSecret() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let otherOrg = StoreFixture(apps: fixture.apps, tenant: try fixture.apps.tenants.tenant())
        let otherApp = try otherOrg.app(#"{"platform":"ios","bundleId":"com.example.other"}"#)
        let foreign = try fixture.surface(app: otherApp.id)
        let body = AppleIntakeTests.notification("SUBSCRIBED", token: fixture.store.appAccountToken(
            fixture.store.buyer()))
        // The path names no organization: a well-formed id of another organization's surface finds that surface, so
        // this organization's secret is refused there (401, not 404) and nothing lands in either organization.
        let crossed = try fixture.forward(surface: foreign.id, secret: surface.secret, body: body)
        #expect(crossed.status == 401 && bodyText(crossed) == Self.unauthorizedSignature)
        // With that surface's own secret, the notification is checked against that surface's app (another bundle id).
        let mismatched = try fixture.forward(surface: foreign.id, secret: foreign.secret, body: body)
        #expect(mismatched.status == 401)
        #expect(try fixture.store.events("StoreNotificationReceived").isEmpty)
        #expect(try otherOrg.events("StoreNotificationReceived").isEmpty)
        // Unknown and malformed ids: one 404, the same bytes.
        let misses = [UUID().uuidString.lowercased(), UUID().uuidString, "not-a-surface", surface.id + "0"].map {
            try? fixture.forward(surface: $0, secret: surface.secret, body: body)
        }
        for miss in misses {
            #expect(miss?.status == 404)
            #expect(miss?.body == misses[0]?.body)
        }
        #expect(misses[0].map(bodyText) == #"{"statusCode":404,"message":"no surface has this forwarding URL"}"#)
        // Its own surface, its own secret: recorded in its own organization only.
        #expect(try fixture.forward(surface: surface.id, secret: surface.secret, body: body).status == 200)
        #expect(try fixture.store.events("StoreNotificationReceived").count == 1)
        #expect(try otherOrg.events("StoreNotificationReceived").isEmpty)
    }

    @Test func malformedBodiesAnswer400AndUnverifiedOnes401AndRecordNothing() throws {
        let fixture = try SurfaceFixture.migrated()
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let cases: [(String, Int)] = [
            ("", 400), ("{}", 400), (#"{"signedPayload":5}"#, 400), ("[]", 400), (AppleIntakeTests.body("a.b"), 400),
            (AppleIntakeTests.body(AppleFixtures.signedData("legacyTransaction")), 400),
            (AppleIntakeTests.body(AppleSigner.rogue.sign(ApplePayloads.notification(type: "TEST"))), 401),
            (AppleIntakeTests.body(AppleFixtures.signedData("wrongBundleId")), 401),
        ]
        for (body, status) in cases {
            // Signed as sent: the forward is authentic, its content is what is refused.
            let built = Self.signed(body, secret: surface.secret)
            let response = fixture.post(surface: surface.id, body: built.body, headers: built.headers)
            #expect(response.status == status, "\(body.prefix(40)) \(bodyText(response))")
            #expect(jsonObject(response)["statusCode"] as? Int == status)
        }
        let empty = Self.signed("", secret: surface.secret)
        #expect(bodyText(fixture.post(surface: surface.id, body: empty.body, headers: empty.headers))
            == #"{"statusCode":400,"code":"VALIDATION_FAILED","#
            + #""message":"the body must be a JSON object with the string field 'signedPayload'"}"#)
        #expect(try fixture.store.events("StoreNotificationReceived").isEmpty)
    }

    /// `body` as a forwarding server would send it, whatever it holds: signed now with `secret` (the signature is
    /// computed here because the client only sends bodies of the issue's shape).
    static func signed(_ body: String, secret: String) -> (body: [UInt8], headers: [(String, String)]) {
        let timestamp = String(SurfaceFixture.seconds(Date()))
        let mac = Hex.encode(HMAC.sha256(key: Array(secret.utf8), message: Array((timestamp + "." + body).utf8)))
        return (Array(body.utf8), [("x-ea-timestamp", timestamp), ("x-ea-signature", "sha256=" + mac)])
    }

    @Test func aSurfaceOverItsRateIsRefusedWithRetryAfter() throws {
        let fixture = try SurfaceFixture.migrated(surfaceLimit: TestIdentity.uniqueLimit(count: 3))
        let app = try fixture.store.appleApp()
        let surface = try fixture.surface(app: app.id)
        let responses = (0..<5).map { _ in fixture.post(surface: surface.id, body: Array("{}".utf8), headers: []) }
        #expect(responses.map(\.status) == [401, 401, 401, 429, 429])
        #expect(responses[3].headers["retry-after"] != nil)
    }

    @Test func theForwardingURLTakesWhatTheAppStoreURLTakes() throws {
        let fixture = try SurfaceFixture.migrated()
        let limit = fixture.apps.api.bodyLimit(for: .post, path: "/v1/app-store/assn/\(UUID().uuidString)")
        #expect(limit == AppleIntake.bodyLimit && limit == 256 * 1024)
    }

    @Test func withoutIdentitySecretsTheForwardingURLAnswers503() throws {
        let tenants = try TenantFixture.migrated()
        let api = try tenants.responder(identity: nil)
        let response = api.respond(to: Request(
            method: .post, path: "/v1/app-store/assn/\(UUID().uuidString.lowercased())", query: [:],
            headers: Headers([]), body: Array("{}".utf8), clientIP: "203.0.113.9", remoteAddress: "203.0.113.9"))
        #expect(response.status == 503 && response.headers["retry-after"] == "60")
    }
}
