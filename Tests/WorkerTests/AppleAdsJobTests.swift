import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport
@testable import Workers

/// The `apple-ads` job kind (issue 20) against a local stand-in of Apple's AdServices API: a `pending` install ends
/// `apple_ads` when Apple attributes it, else the next tier by precedence, after retries; an event for the final tier.
@Suite struct AppleAdsJobTests {
    typealias Fixture = AppleAdsJobFixture

    /// A token in the shape `AAAttribution.attributionToken()` returns (base64, with `+`, `/` and `=`).
    static let token = "G9i5hC8lQJeGOfmS+MFycll/025oJEjtpZ+rs4AUkDEJh52fT8RrjwIR/h+2JOpXz4MRdmtcemL8WTTHfNN52tjq=="
    /// Apple's documented answer for an attributed install (keys sorted, as stored).
    static let attributed = #"{"adGroupId":542317095,"adId":542317136,"attribution":true,"campaignId":542370539,"#
        + #""clickDate":"2020-04-08T17:17Z","conversionType":"Download","countryOrRegion":"US","keywordId":87675432,"#
        + #""orgId":40669820}"#

    private func resolved(_ fixture: Fixture, _ org: OrgID) throws -> [AppInstallTierResolved] {
        try fixture.events(org, AppInstallTierResolved.eventType).map { try $0.decode(AppInstallTierResolved.self) }
    }

    @Test func anAttributedTokenEndsApplesAdsWithApplesRecordAndTheTokenAsTextPlain() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(Self.token, [(200, Self.attributed)])
        let hash = try fixture.install(app, token: Self.token, link: "https://go.example.com/spring")
        #expect(try fixture.row(hash).string("tier") == "pending")
        #expect(try fixture.runDue() == 1)
        let row = try fixture.row(hash)
        #expect(try row.string("tier") == "apple_ads")
        #expect(row["apple_ads_token"] == nil && row["apple_ads_attribution"] == Self.attributed)
        #expect(try resolved(fixture, app.org) == [AppInstallTierResolved(
            appId: app.app.description, installHash: hash, tier: .appleAds, reason: "attributed",
            attribution: Self.attributed)])
        #expect(try fixture.peer.calls() == [["path": "/api/v1/", "contentType": "text/plain", "body": Self.token]])
        // The job is done, and a re-sent install answers the final tier.
        #expect(try fixture.appleAdsJobs(app.org).map(\.state) == [.done])
        #expect(try fixture.runDue() == 0)
    }

    @Test func notAttributedEndsTheNextTierLinkOrOrganic() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(Self.token, [(200, #"{"attribution":false}"#)])
        let linked = try fixture.install(app, token: Self.token, link: "https://go.example.com/spring")
        let plain = try fixture.install(app, token: Self.token)
        try fixture.runDue()
        #expect(try fixture.row(linked).string("tier") == "link")
        #expect(try fixture.row(plain).string("tier") == "organic")
        #expect(try fixture.row(plain)["apple_ads_attribution"] == nil)
        #expect(try resolved(fixture, app.org).map(\.reason) == ["not_attributed", "not_attributed"])
    }

    @Test func notAttributedFallsToIdentityWhenTheInstallsLatestAccountTokenGrantedAttribution() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(Self.token, [(200, #"{"attribution":false}"#)])
        // No deep link: a link would rank above identity (docs/app-ingest.md, the precedence).
        let identified = try fixture.install(app, token: Self.token)
        let withheld = try fixture.install(app, token: Self.token)
        // Account tokens as a stored batch leaves them (docs/app-identity.md): the latest sighting decides.
        let owner = try fixture.jobs.ownerConnection()
        for (hash, attribution) in [(identified, false), (identified, true), (withheld, false)] {
            try owner.query("""
                INSERT INTO app_install_identities (org_id, project_id, app_id, install_hash, kind, token, attribution,
                                                    first_seen_at, last_seen_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, 'em', md5(random()::text) || md5(random()::text), $5,
                        now(), clock_timestamp())
                """, [.text(app.org.description), .text(app.project.description), .text(app.app.description),
                      .text(hash), .text(attribution ? "true" : "false")])
        }
        try fixture.runDue()
        #expect(try fixture.row(identified).string("tier") == "identity")
        #expect(try fixture.row(withheld).string("tier") == "organic")
    }

    @Test func a404IsRetriedFiveSecondsLaterUntilAppleHasTheRecord() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(Self.token, [(404, nil), (404, nil), (200, Self.attributed)])
        let hash = try fixture.install(app, token: Self.token)
        try fixture.runDue()
        #expect(try fixture.row(hash).string("tier") == "pending")
        #expect(try fixture.runDue() == 0)
        for _ in 0..<2 {
            fixture.clock.advance(5)
            try fixture.runDue()
        }
        #expect(try fixture.row(hash).string("tier") == "apple_ads")
        #expect(try fixture.peer.calls().count == 3)
        #expect(try resolved(fixture, app.org).count == 1)
    }

    @Test func anInvalidTokenEndsAtOnceAndAnAnswerThatNeverComesEndsUnresolvedAfterTheLadder() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        let invalid = "not-a-token"
        try fixture.peer.script(invalid, [(400, nil)])
        try fixture.peer.script(Self.token, [(503, nil)])
        let refused = try fixture.install(app, token: invalid)
        let down = try fixture.install(app, token: Self.token, link: "https://go.example.com/x")
        try fixture.runDue()
        #expect(try fixture.row(refused).string("tier") == "organic")
        for delay in AppleAdsJob.retryDelays {
            #expect(try fixture.row(down).string("tier") == "pending")
            fixture.clock.advance(delay)
            try fixture.runDue()
        }
        #expect(try fixture.row(down).string("tier") == "link")
        #expect(try resolved(fixture, app.org).map(\.reason) == ["invalid_token", "unresolved"])
        #expect(try fixture.peer.calls().filter { $0["body"] == Self.token }.count == AppleAdsJob.retryDelays.count + 1)
        #expect(try fixture.appleAdsJobs(app.org).map(\.state) == [.done, .done])
    }

    @Test func aTokenIsKeptSealedAndAnInstallErasedWhilePendingResolvesWithoutAskingApple() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        let inst = "I-ERASED"
        let pepper = Array(repeating: UInt8(0x44), count: 32)
        let hash = Hex.encode(HMAC.sha256(key: pepper, message: Array("\(app.app):\(inst)".utf8)))
        try fixture.install(app, token: Self.token, link: "https://go.example.com/spring", hash: hash)
        #expect(try fixture.row(hash).string("apple_ads_token").hasPrefix("pd1."))
        let secret = String(repeating: "5a", count: 32)
        try fixture.model.ingest.rows.keepEraseProof(org: app.org, app: app.app, installHash: hash,
                                                     proof: Hex.encode(SHA256.hash(Array(secret.utf8))))
        #expect(try #require(fixture.model.identity).eraseInstall.device(
            org: app.org, project: app.project, app: app.app, install: inst, secret: secret,
            metadata: Fixture.metadata))
        #expect(try fixture.row(hash)["apple_ads_token"] == nil)
        #expect(try fixture.runDue() == 1)
        #expect(try fixture.row(hash).string("tier") == "organic")
        #expect(try resolved(fixture, app.org).map(\.reason) == ["unresolved"])
        #expect(try fixture.peer.calls().isEmpty)
    }

    @Test func anInstallThatIsNotPendingMakesNoJob() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        let install = AppInstallRecorded(
            appId: app.app, projectId: app.project, installHash: String(repeating: "a", count: 64), tier: .organic,
            installedAt: RFC3339.format(fixture.clock.now), sdk: nil, sdkVersion: nil,
            sources: AppInstallRecorded.Sources())
        _ = try #require(fixture.model.identity).recordInstall.run(install, orgId: app.org, metadata: Fixture.metadata)
        let event = try #require(try fixture.events(app.org, AppInstallRecorded.eventType).last)
        #expect(try AppleAdsJob.jobs(for: event).isEmpty)
    }

    @Test func replayRebuildsTheResolvedTierEqualToTheLiveRow() throws {
        let fixture = try Fixture()
        let app = try fixture.app()
        try fixture.peer.script(Self.token, [(200, Self.attributed)])
        try fixture.install(app, token: Self.token)
        try fixture.runDue()
        let owner = try fixture.jobs.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM app_installs ORDER BY install_hash").rows.map(\.values)
        }
        let live = try snapshot()
        try owner.execute("DELETE FROM app_installs")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try snapshot() == live)
    }
}
