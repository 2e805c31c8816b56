@testable import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Testing

/// `POST /public/handoff/resolve-by-fingerprint` after a capture (`POST /public/handoff/fingerprint`, issue 5):
/// what matches, within which window, and the one 404 for everything else; the clock injected.
@Suite struct ResolveByFingerprintTests {
    typealias F = FingerprintFixture

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
        // The IP's lookup reference, never its keyed hash, which only `lookup_refs` maps the reference to.
        #expect(recorded.fields["ipHash"] == nil && !recorded.text.contains(ipHash))
        let ipRef = try #require(recorded.fields["ipRef"] as? String)
        #expect(try owner.query("SELECT hash, guid FROM lookup_refs WHERE ref = $1", [.text(ipRef)]).rows.map {
            [try $0.string("hash"), try $0.string("guid")]
        } == [[ipHash, PaymentTests.guidA]])
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
        let b = try world.pay(guid: F.guidB, paymentId: "pi_b")
        #expect(world.capture(a.token, language: "ru-RU").status == 204)
        #expect(world.capture(b.token, language: "en-US").status == 204)
        world.clock.advance(60)
        #expect(bodyText(world.resolve(world.probe(language: nil))) == F.notFound)
        #expect(bodyText(world.resolve(world.probe(language: "de"))) == F.notFound)
        #expect(bodyText(world.resolve(world.probe(timezone: nil))) == F.notFound)
        #expect(try world.count("FingerprintMatched") == 0)
        #expect(bodyText(world.resolve(world.probe(language: "en"))) == F.found(F.guidB, "fingerprint"))
        // Once b is spent, a is the only candidate left.
        #expect(bodyText(world.resolve(world.probe(language: nil))) == F.found(PaymentTests.guidA, "fingerprint"))
    }

    @Test func aProjectWithFingerprintingOffCollectsNothingAndResolvesNothing() throws {
        let world = try F(settings: ["--android-package", F.bundle, "--fingerprint", "off"])
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
}
