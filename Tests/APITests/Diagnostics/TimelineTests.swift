@testable import API
import Foundation
import HTTPServer
import Testing

/// `GET /s2s/v1/users/{guid}/timeline` and `GET /s2s/v1/payments/{paymentId}/timeline` (issue 18): each path and
/// each refusal reason gives its lines and its verdict; another organization's buyer and payment are 404.
@Suite struct TimelineTests {
    typealias W = DiagnosticsWorld
    typealias F = FingerprintFixture

    static let paid = [
        "PaymentRecorded: Payment recorded: com.app.pro_monthly, 999 EUR (minor units).",
        "HandoffCodeMinted: Handoff code minted (redacted), valid until 2027-01-18T08:00:00.250Z.",
        "HandoffCodeMinted: Install token minted (redacted), valid until 2027-02-14T08:00:00.250Z.",
    ]
    static let captured = "FingerprintRecorded: Post-payment page opened on ios, language ru-RU, and sent a "
        + "fingerprint (platform, screen, timezone, language, ip)."

    static func refused(_ why: String) -> String {
        "FingerprintRefused: A device on the same network asked by fingerprint and was refused: \(why)."
    }

    @Test func anExactFingerprintMatchIsTheVerdictAndEveryFactHasItsLine() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        let payment = try world.pay()
        #expect(world.capture(payment.token).status == 204)
        world.clock.advance(3600)
        #expect(world.resolve(world.probe()).status == 200)
        let answer = diagnostics.timeline()
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"] == "application/json")
        #expect(W.lines(answer) == ["BuyerCreated: Buyer created."] + Self.paid + [
            Self.captured,
            "FingerprintMatched: Fingerprint matched exactly (IP, platform, screen, time zone): the app learned the "
                + "guid.",
        ])
        #expect(W.verdict(answer) == [
            "identified": "1", "path": "fingerprintExact", "at": "2027-01-15T09:00:00.250Z",
            "text": "identified via fingerprint (exact) at 2027-01-15T09:00:00.250Z",
        ])
        let body = bodyText(answer)
        #expect(!body.contains(payment.code) && !body.contains("203.0.113.20") && !body.contains("iPhone"))
        #expect(jsonObject(answer)["guid"] as? String == PaymentTests.guidA)
        #expect(jsonObject(answer)["truncated"] as? Bool == false)
    }

    @Test func aFingerprintNoAppAskedForSaysThatNoRecoveryWasRequestedAndUntilWhenTheCodeIsValid() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token).status == 204)
        world.clock.advance(3600)
        #expect(W.verdict(diagnostics.timeline()) == [
            "identified": "0", "reason": "recoveryNeverRequested",
            "text": "not identified yet: no app has redeemed the code or asked by fingerprint (the code is valid "
                + "until 2027-01-18T08:00:00.250Z), and no recovery mail was requested — check that the app asks for "
                + "the code on first launch",
        ])
    }

    @Test func aRedeemedCodeIdentifiesAndARepeatIsRefusedAsSpent() throws {
        let diagnostics = try W()
        let payment = try diagnostics.world.pay()
        diagnostics.world.clock.advance(120)
        #expect(diagnostics.redeem(payment.code).status == 200)
        #expect(diagnostics.redeem(payment.code).status == 404)
        let answer = diagnostics.timeline()
        #expect(W.lines(answer).suffix(2) == [
            "HandoffCodeRedeemed: Handoff code redeemed by the app: it learned the guid.",
            "HandoffCodeRefused: An app offered the handoff code, refused because it was already used.",
        ])
        #expect(W.verdict(answer)["text"] == "identified via handoff code at 2027-01-15T08:02:00.250Z")
        #expect(!bodyText(answer).contains(payment.code))
    }

    @Test func aRedeemedInstallTokenIsItsOwnPath() throws {
        let diagnostics = try W()
        let paid = try ResolveTests.pay(diagnostics.world.api, key: diagnostics.world.tenant.key)
        #expect(diagnostics.redeem(paid.token).status == 200)
        #expect(W.verdict(diagnostics.timeline())["path"] == "installToken")
    }

    @Test func anIPOnlyProbeWithinThirtyMinutesIdentifiesViaTheIPPath() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token).status == 204)
        world.clock.advance(600)
        #expect(bodyText(world.resolve(world.probe(timezone: nil))) == F.found(PaymentTests.guidA, "ip"))
        let answer = diagnostics.timeline()
        #expect(W.lines(answer, of: "FingerprintMatched").count == 1)
        #expect(W.verdict(answer)["path"] == "fingerprintIp")
        #expect(W.verdict(answer)["text"] == "identified via fingerprint (IP) at 2027-01-15T08:10:00.250Z")
    }

    @Test func anAdjustLinkWithoutAdjTIsTheVerdictWhenNothingElseIdentified() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        let world = diagnostics.world
        _ = try world.pay()
        // A link stored before links were checked for `adj_t` (the check refuses one today).
        _ = try world.fixture.ownerConnection().query("""
            UPDATE projects SET tracker = 'adjust', tracker_link = 'https://myapp.go.link/abc123'
            WHERE project_id = $1::uuid
            """, [.text(world.tenant.project)])
        let verdict = W.verdict(diagnostics.timeline())
        #expect(verdict["reason"] == "trackerLinkMissingAdjT", "\(verdict)")
        #expect(verdict["identified"] == "0")
    }

    @Test func anExpiredCodeIsRefusedAndTheVerdictSaysWhatToDo() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        let payment = try diagnostics.world.pay()
        diagnostics.world.clock.advance(72 * 3600)
        #expect(diagnostics.redeem(payment.code).status == 404)
        let answer = diagnostics.timeline()
        #expect(W.lines(answer, of: "HandoffCodeRefused")
            == ["HandoffCodeRefused: An app offered the handoff code, refused because it had expired."])
        #expect(W.verdict(answer) == [
            "identified": "0", "reason": "codeExpiredUnused",
            "text": "not identified yet: the handoff code expired unused — have the buyer request a recovery mail "
                + "from the app",
        ])
    }

    @Test func aContradictingScreenIsRecordedWithItsAttributeButTheDeviceSeesTheOne404() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token).status == 204)
        let answer = world.resolve(world.probe(screen: "100x200"))
        #expect(bodyText(answer) == F.notFound)
        let timeline = diagnostics.timeline()
        #expect(W.lines(timeline, of: "FingerprintRefused")
            == [Self.refused("the app's screen differs from the browser's (contradicting)")])
        #expect(W.verdict(timeline)["reason"] == "fingerprintRefused")
        #expect(W.verdict(timeline)["text"] == "not identified yet: the app asked by fingerprint and was refused: "
            + "the app's screen differs from the browser's (contradicting) — have the buyer enter the code from the "
            + "post-payment page or restore by e-mail")
    }

    @Test func anIPOnlyProbeAfterThirtyMinutesIsRecordedAsWindowPassed() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token).status == 204)
        world.clock.advance(1801)
        #expect(bodyText(world.resolve(world.probe(timezone: nil))) == F.notFound)
        #expect(W.lines(diagnostics.timeline(), of: "FingerprintRefused")
            == [Self.refused("more than 30 minutes after the payment and no exact match (window passed)")])
    }

    @Test func twoBuyersBehindOneIPAreBothRecordedAsAmbiguous() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token, language: nil).status == 204)
        #expect(world.capture(try world.pay(guid: F.guidB, paymentId: "pi_2").token, language: nil).status == 204)
        #expect(bodyText(world.resolve(world.probe())) == F.notFound)
        let line = Self.refused("another buyer's fingerprint from the same network fitted too (ambiguous)")
        #expect(W.lines(diagnostics.timeline(), of: "FingerprintRefused") == [line])
        #expect(W.lines(diagnostics.timeline(F.guidB), of: "FingerprintRefused") == [line])
    }

    @Test func fingerprintingTurnedOffAfterTheCaptureIsRecordedAsDisabled() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        #expect(world.capture(try world.pay().token).status == 204)
        let off = world.api.respond(to: s2sRequest(.patch, "/s2s/v1/project", key: world.tenant.key,
                                                   body: #"{"fingerprint":false}"#))
        #expect(off.status == 200)
        #expect(bodyText(world.resolve(world.probe())) == F.notFound)
        #expect(W.lines(diagnostics.timeline(), of: "FingerprintRefused")
            == [Self.refused("fingerprinting is off for the project (disabled)")])
    }

    @Test func aPaymentTimelineShowsThatPaymentAndTheBuyerWideFactsOnly() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        _ = try diagnostics.world.pay()
        _ = try diagnostics.world.pay(paymentId: "pi_2")
        let answer = diagnostics.paymentTimeline("pi_2")
        #expect(answer.status == 200)
        #expect(jsonObject(answer)["paymentId"] as? String == "pi_2")
        let entries = (jsonObject(answer)["entries"] as? [[String: Any]]) ?? []
        #expect(entries.map { $0["paymentId"] as? String } == [nil, "pi_2", "pi_2", "pi_2"])
        #expect(W.lines(answer) == ["BuyerCreated: Buyer created."] + Self.paid)
        #expect(W.verdict(answer)["reason"] == "fingerprintingOff")
    }

    @Test func anotherOrganizationsBuyerAndPaymentAreNotFoundAndBadIdsAreRefusedByName() throws {
        let diagnostics = try W()
        _ = try diagnostics.world.pay()
        let other = try diagnostics.world.fixture.tenant()
        let buyer = diagnostics.timeline(key: other.key)
        #expect(buyer.status == 404)
        #expect(bodyText(buyer) == #"{"statusCode":404,"code":"NOT_FOUND","message":"no buyer with this guid"}"#)
        let payment = diagnostics.paymentTimeline("pi_1", key: other.key)
        #expect(bodyText(payment)
            == #"{"statusCode":404,"code":"NOT_FOUND","message":"no payment with this paymentId"}"#)
        #expect(diagnostics.timeline(F.guidB).status == 404)
        let malformed = diagnostics.timeline("null")
        #expect(malformed.status == 400 && bodyText(malformed).contains(#""code":"VALIDATION_GUID_FORMAT""#))
        let badPayment = diagnostics.paymentTimeline("pi!1")
        #expect(badPayment.status == 400
            && bodyText(badPayment).contains(#""code":"VALIDATION_PAYMENT_ID_FORMAT""#))
        let anonymous = diagnostics.world.api.respond(
            to: s2sRequest(.get, "/s2s/v1/users/\(PaymentTests.guidA)/timeline", key: nil))
        #expect(anonymous.status == 401)
    }
}
