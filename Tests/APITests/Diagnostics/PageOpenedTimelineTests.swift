@testable import API
import Foundation
import HTTPServer
import Testing

/// The first opening of a usable post-payment page is a timeline fact (`PostPaymentPageOpened`, issue 18): once per
/// payment, with its platform class and language, and it sharpens the verdict of a page that sent no fingerprint.
@Suite struct PageOpenedTimelineTests {
    typealias W = DiagnosticsWorld
    typealias F = FingerprintFixture

    static let opened = "PostPaymentPageOpened: Post-payment page opened on ios, in language ru."

    private func open(_ world: F, _ token: String) -> Response {
        world.api.respond(to: Request(method: .get, path: "/done/\(token)", headers: Headers([
            ("User-Agent", F.iPhone), ("Accept-Language", "ru-RU,ru;q=0.9"),
        ])))
    }

    @Test func theFirstOpeningIsRecordedOnceAndTheVerdictSaysNoFingerprintCame() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        let payment = try world.pay()
        let before = diagnostics.timeline()
        #expect(W.verdict(before)["reason"] == "noFingerprintCaptured")
        world.clock.advance(60)
        for _ in 0..<3 { #expect(open(world, payment.token).status == 200) }
        let answer = diagnostics.timeline()
        #expect(W.lines(answer, of: "PostPaymentPageOpened") == [Self.opened])
        #expect(W.verdict(answer)["reason"] == "openedWithoutFingerprint")
        #expect(W.verdict(answer)["text"]?.contains("opened the post-payment page but it sent no fingerprint") == true)
        #expect(!bodyText(answer).contains(payment.code) && !bodyText(answer).contains("iPhone"))
        // The payment's own timeline shows it too; a fingerprint from the page then identifies as before.
        #expect(W.lines(diagnostics.paymentTimeline("pi_1"), of: "PostPaymentPageOpened") == [Self.opened])
        #expect(world.capture(payment.token).status == 204)
        #expect(world.resolve(world.probe()).status == 200)
        #expect(W.verdict(diagnostics.timeline())["path"] == "fingerprintExact")
    }

    @Test func aSpentPageRecordsNoOpening() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        let payment = try world.pay()
        #expect(diagnostics.redeem(payment.code).status == 200)
        #expect(open(world, payment.token).status == 200)
        #expect(W.lines(diagnostics.timeline(), of: "PostPaymentPageOpened").isEmpty)
    }
}
