import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport
@testable import Workers

/// The `google-play` job in a real `handoff work` process: the `store` role is registered, gets the master key from
/// `HANDOFF_MASTER_KEY` and the API from `GOOGLE_PLAY_API_BASE_URL`, and its dispatcher makes the job from the log.
@Suite struct GooglePlayWorkerTests {
    typealias Fixture = GooglePlayJobFixture

    @Test func aWorkerProcessWithTheStoreRoleAppliesAGooglePlayPurchase() throws {
        let fixture = try Fixture()
        let tenant = try fixture.tenant()
        let app = try fixture.app(tenant)
        let guid = try fixture.buyer(tenant)
        let order = "GPA.5555-6666-7777-88888"
        let answer = Fixture.subscriptionAnswer(buyer: guid, order: order + "..0", expiry: "2031-01-15T12:00:00Z")
        try fixture.peer.addPurchase(package: Fixture.package, token: "sub-process", answer: answer)
        try fixture.receive(Fixture.push(Fixture.subscription(type: 4, token: "sub-process")), app: app,
                            dispatch: false)

        let worker = try fixture.worker("dispatcher,relay,store")
        let applied = try fixture.jobs.waitUntil(timeout: 120) {
            try fixture.playJobs(tenant.org).first?.state == .done
        }
        worker.signal(SIGTERM)
        #expect(try worker.wait(timeout: 60) == .exited(0))
        #expect(applied, "\(worker.output())")
        #expect(try fixture.playJobs(tenant.org).map(\.outcome) == ["activate \(order), buyer known"])
        let recorded = try fixture.events(tenant.org, PaymentRecorded.eventType).map {
            try $0.decode(PaymentRecorded.self)
        }
        #expect(recorded.map(\.paymentId) == [order] && recorded.map(\.guid) == [guid])
        #expect(recorded.map(\.amount) == [999] && recorded.map(\.currency) == ["USD"])
    }
}

