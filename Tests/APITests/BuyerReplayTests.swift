import Commands
import EventStore
import Foundation
import Testing
import TestSupport

/// Replay after the identity flows (users by externalId, e-mail, concurrency) equals the live projections.
@Suite struct BuyerReplayTests {
    @Test func replayRebuildsTheBuyerTablesEqualToTheLiveOnes() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant(["--paywall-url", "https://pay.example.com/"])
        let b = try fixture.tenant()
        let api = try fixture.responder(poolSize: 8)
        onThreads(20) { index in
            _ = api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: index % 2 == 0 ? a.key : b.key,
                                           body: #"{"externalId":"x\#(index % 4)","email":"p\#(index)@example.com"}"#))
        }
        for body in [#"{"email":"solo@example.com"}"#, #"{"email":"solo@example.com"}"#, #"{"externalId":"y"}"#] {
            #expect(api.respond(to: s2sRequest(.post, "/s2s/v1/users", key: a.key, body: body)).status == 200)
        }
        let owner = try fixture.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM buyers ORDER BY guid").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyer_emails ORDER BY guid, email_hash").rows.map(\.values)
        }
        let live = try snapshot()
        #expect(live.count == (4 + 3) + 1 + (4 + 2))
        try owner.execute("UPDATE buyers SET created_at = now(); DELETE FROM buyer_emails")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("buyers") && report.tables.contains("buyer_emails"))
        #expect(try snapshot() == live)
    }
}
