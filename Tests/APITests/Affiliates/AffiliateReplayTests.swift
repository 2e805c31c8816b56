import API
import Commands
import EventStore
import Foundation
import Testing
import TestSupport

/// `handoff replay` rebuilds the affiliate tables (migration 0020) from the log, equal to what the live appends wrote:
/// campaigns, affiliates, clicks of both sources with the token kept on a click, and a referral replaced after its
/// window.
@Suite struct AffiliateReplayTests {
    private typealias F = AffiliateFixture

    @Test func replayRebuildsTheAffiliateTablesEqualToTheLiveOnes() throws {
        let fixture = try F.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let short = try fixture.campaign(key: a.key, #"{"name":"S","commission":\#(F.percent),"windowDays":1}"#)
        let long = try fixture.campaign(key: a.key, #"{"name":"L","commission":{"type":"fixed","amountMinor":9,"#
                                            + #""currency":"EUR"},"offerCode":"LONG"}"#)
        _ = try fixture.affiliate(key: a.key, campaign: short, refCode: "SHRT2345")
        _ = try fixture.affiliate(key: a.key, campaign: long, refCode: "LNG23456")
        _ = try fixture.affiliate(key: b.key, campaign: try fixture.campaign(key: b.key), refCode: "SHRT2345")
        let click = try #require(F.clickID(fixture.follow("SHRT2345", project: a.project)))
        #expect(fixture.bind(F.bindBody(project: a.project, click: click)).status == 200)
        #expect(fixture.bind(F.bindBody(project: a.project, click: click, guid: "buyer")).status == 200)
        #expect(fixture.bind(F.bindBody(project: b.project, code: "SHRT2345")).status == 200)
        fixture.clock.set(F.start.addingTimeInterval(86_400))
        #expect(fixture.bind(F.bindBody(project: a.project, code: "LNG23456", guid: "buyer")).status == 200)
        let owner = try fixture.owner()
        func snapshot() throws -> [[String?]] {
            try ["affiliate_campaigns ORDER BY campaign_id", "affiliates ORDER BY affiliate_id",
                 "affiliate_clicks ORDER BY click_id", "affiliate_referrals ORDER BY org_id, app_account_token"]
                .flatMap { try owner.query("SELECT * FROM \($0)").rows.map(\.values) + [["--"]] }
        }
        let live = try snapshot()
        // 3 campaigns, 3 affiliates, 3 clicks (a link, two codes), 3 referrals (the buyer's replaced once).
        #expect(live.count == 3 + 1 + 3 + 1 + 3 + 1 + 3 + 1)
        #expect(try fixture.events("ReferralBound", org: a.org) == 3)
        #expect(try owner.query("SELECT count(*) AS n FROM affiliate_clicks WHERE app_account_token IS NOT NULL")
            .rows[0].int("n") == 2)
        try owner.execute("DELETE FROM affiliate_campaigns; DELETE FROM affiliates; DELETE FROM affiliate_clicks; "
                          + "UPDATE affiliate_referrals SET guid = NULL")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        let affiliateTables = ["affiliate_campaigns", "affiliates", "affiliate_clicks", "affiliate_referrals"]
        #expect(report.tables.filter(affiliateTables.contains) == affiliateTables)
        #expect(try snapshot() == live)
    }
}
