@testable import API
import Foundation
import HTTPServer
import Testing

/// The externalId path end to end (issue 18): a buyer the developer created with its own account id is identified by
/// that id from its first payment on, whatever the page and the codes do.
@Suite struct ExternalIdTimelineTests {
    typealias W = DiagnosticsWorld

    @Test func aBuyerCreatedWithAnExternalIdIsIdentifiedViaExternalIdAtItsPayment() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        let created = world.api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: world.tenant.key,
                                                       body: #"{"externalId":"acct-42"}"#))
        let guid = try #require(jsonObject(created)["guid"] as? String, "\(bodyText(created))")
        let unpaid = diagnostics.timeline(guid)
        #expect(W.lines(unpaid) == ["BuyerCreated: Buyer created with your externalId."])
        #expect(W.verdict(unpaid)["reason"] == "noPayment")
        world.clock.advance(600)
        _ = try world.pay(guid: guid)
        let answer = diagnostics.timeline(guid)
        #expect(W.verdict(answer)["identified"] == "1")
        #expect(W.verdict(answer)["path"] == "externalId", "\(W.verdict(answer))")
        #expect(W.verdict(answer)["text"]?.hasPrefix("identified via ") == true)
        #expect(!bodyText(answer).contains("acct-42"))
    }
}
