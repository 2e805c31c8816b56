import Commands
import EventStore
import Foundation
import Testing
import TestSupport

/// Replay after the payment flows equals the live projections.
@Suite struct PaymentReplayTests {
    @Test func replayRebuildsThePaymentTablesEqualToTheLiveOnes() throws {
        let fixture = try TenantFixture.migrated()
        let a = try fixture.tenant()
        let b = try fixture.tenant()
        let api = try fixture.responder(clock: { PaymentTests.now }, poolSize: 8)
        onThreads(12) { index in
            let body = PaymentTests.body(guid: String(format: "%08x-d9cb-469f-a165-70867728950e", index % 2 + 1),
                                         paymentId: "pi_\(index % 4)",
                                         extra: #","email":"e\#(index % 2)@example.com""#)
            _ = api.respond(to: s2sRequest(.post, "/s2s/v1/payments", key: index % 2 == 0 ? a.key : b.key, body: body))
        }
        let owner = try fixture.ownerConnection()
        func snapshot() throws -> [[String?]] {
            try owner.query("SELECT * FROM payments ORDER BY org_id, payment_id").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM handoff_codes ORDER BY code_hash").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyer_emails ORDER BY guid, email_hash").rows.map(\.values) + [["--"]]
                + owner.query("SELECT * FROM buyers ORDER BY org_id, guid").rows.map(\.values)
        }
        for id in ["pi_0", "pi_2", "pi_0", "pi_1"] {
            _ = api.respond(to: s2sRequest(.post, "/s2s/v1/payments/\(id)/refund", key: a.key))
        }
        let live = try snapshot()
        #expect(live.count == 4 + 1 + 8 + 1 + 2 + 1 + 2)
        try owner.execute(
            "DELETE FROM payments; DELETE FROM handoff_codes; DELETE FROM buyer_emails; DELETE FROM buyers")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("payments") && report.tables.contains("handoff_codes"))
        #expect(try snapshot() == live)
    }
}
