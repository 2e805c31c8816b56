import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport
@testable import Workers

/// The `apple-ads` job in a real `handoff work` process: the role is registered, takes Apple's API from
/// `APPLE_ADS_API_BASE_URL` (a trailing `/` is dropped, the job adds it back), and its dispatcher makes the job from
/// the log.
@Suite struct AppleAdsWorkerTests {
    typealias Fixture = AppleAdsJobFixture

    @Test func aWorkerProcessWithTheAppleAdsRoleResolvesAPendingInstall() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(AppleAdsJobTests.token, [(200, AppleAdsJobTests.attributed)])
        let hash = try fixture.install(app, token: AppleAdsJobTests.token, dispatch: false)

        let worker = try fixture.worker("dispatcher,relay,apple-ads")
        let resolved = try fixture.jobs.waitUntil(timeout: 120) {
            try fixture.row(hash).string("tier") == "apple_ads"
        }
        worker.signal(SIGTERM)
        #expect(try worker.wait(timeout: 60) == .exited(0))
        #expect(resolved, "\(worker.output())")
        #expect(try fixture.appleAdsJobs(app.org).map(\.outcome) == ["apple_ads (attributed)"])
        #expect(try fixture.peer.calls().map { $0["path"] } == ["/api/v1/"])
    }
}
