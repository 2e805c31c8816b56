@testable import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Recovery mails in the buyer's timeline (issue 18): requested, sent, and skipped with the reason the worker had.
@Suite struct RecoveryTimelineTests {
    @Test func aSentMailAndASkippedOneAppearWithTheirReasonsAndTheVerdictPointsAtTheUnusedMail() throws {
        let flow = try EmailRecoveryFlow()
        let guid = try flow.buyerWithPayment(email: "buyer@example.com")
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 1)
        flow.advance(60)
        #expect(flow.request(flow.body(email: "buyer@example.com")).status == 204)
        try flow.work(jobs: 2)
        #expect(flow.sink.messages().count == 1)
        let answer = flow.api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(guid)/timeline", key: flow.tenant.key))
        #expect(answer.status == 200)
        let recovery = DiagnosticsWorld.lines(answer).filter { $0.contains("Recovery") }
        #expect(recovery == [
            "EmailRecoveryRequested: Recovery mail requested for the buyer's e-mail.",
            "HandoffCodeMinted: Recovery code minted (redacted), valid until 2027-01-18T08:00:00.000Z.",
            "RecoveryMailSent: Recovery mail sent with a fresh code.",
            "EmailRecoveryRequested: Recovery mail requested for the buyer's e-mail.",
            "RecoveryMailSkipped: Recovery mail not sent: a recovery mail went to this address less than 20 minutes "
                + "ago.",
        ])
        #expect(DiagnosticsWorld.verdict(answer)["reason"] == "recoveryNotUsed")
        #expect(!bodyText(answer).contains("buyer@example.com"))
    }

    @Test func aRedeemedRecoveryCodeIdentifiesViaTheRecoveryMailAndVerifiesTheEmail() throws {
        let flow = try EmailRecoveryFlow()
        let guid = try flow.buyerWithPayment(email: "mailed@example.com")
        #expect(flow.request(flow.body(email: "mailed@example.com")).status == 204)
        try flow.work(jobs: 1)
        let mail = try #require(flow.sink.messages().first)
        let code = try #require(RecoveryMail.code(RecoveryMail.textPart(mail)))
        flow.advance(300)
        let redeemed = ResolveTests.resolve(flow.api, code, ip: "198.51.100.173")
        #expect(redeemed.status == 200, "\(bodyText(redeemed))")
        let answer = flow.api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(guid)/timeline", key: flow.tenant.key))
        #expect(DiagnosticsWorld.lines(answer).suffix(2) == [
            "HandoffCodeRedeemed: Recovery code redeemed by the app: it learned the guid.",
            "EmailVerified: E-mail verified by redeeming a code.",
        ], "\(DiagnosticsWorld.lines(answer))")
        #expect(DiagnosticsWorld.verdict(answer) == [
            "identified": "1", "path": "recoveryMail", "at": "2027-01-15T08:05:00.000Z",
            "text": "identified via recovery mail at 2027-01-15T08:05:00.000Z",
        ])
        let body = bodyText(answer)
        #expect(!body.contains("mailed@example.com") && !body.contains(code))
    }
}
