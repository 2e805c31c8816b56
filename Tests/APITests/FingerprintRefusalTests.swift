@testable import API
import Commands
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// What the fingerprint endpoints refuse (issue 5): malformed and oversized bodies, unknown page tokens, the per-IP
/// limit, Redis down, a server without identity secrets.
@Suite struct FingerprintRefusalTests {
    typealias F = FingerprintFixture

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
        #expect(page.status == 404 && page.body == PostPaymentPageHTML.notFound.body)
    }
}
