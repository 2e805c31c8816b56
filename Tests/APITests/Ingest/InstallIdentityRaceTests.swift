@testable import API
import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// Issue 20, the `identity` tier when a batch and its install arrive at once (docs/app-identity.md "The `identity`
/// tier"): the install read no account token yet and the batch found no install yet; the install's request settles
/// the tier after recording, so the install still ends `identity`.
@Suite struct InstallIdentityRaceTests {
    private func tier(_ fixture: IngestFixture, app: String, inst: String) throws -> String? {
        try fixture.apps.tenants.ownerConnection().query(
            "SELECT tier FROM app_installs WHERE app_id = $1::uuid AND install_hash = $2",
            [.text(app), .text(Hex.encodeHMAC(app: app, inst: inst))]).rows.first?.string("tier")
    }

    @Test func anInstallRecordedOrganicAfterABatchLeftItsTokenIsSettledToIdentity() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let model = fixture.api.environment.model
        let org = try OrgID.parse(app.tenant.org).get()
        let project = try ProjectID.parse(app.tenant.project).get()
        let appId = try AppID.parse(app.appId).get()
        // The batch is stored first and finds no install; the install decided `organic` before the token was there.
        let identity = #""xid":"\#(IngestIdentityTests.xid)""#
        #expect(fixture.batch(IngestIdentityTests.batch(app.key, inst: "S", identity: identity)).status == 200)
        let metadata = EventMetadata(actor: .system("test"))
        for inst in ["S", "N"] {
            let install = AppInstallRecorded(
                appId: appId, projectId: project, installHash: Hex.encodeHMAC(app: app.appId, inst: inst),
                tier: .organic, installedAt: RFC3339.format(Date()), sdk: nil, sdkVersion: nil,
                sources: AppInstallRecorded.Sources())
            let outcome = try #require(model.identity).recordInstall.run(install, orgId: org, metadata: metadata)
            #expect(outcome.tier == .organic && outcome.recorded)
            #expect(try tier(fixture, app: app.appId, inst: inst) == "organic")
            let settled = try model.ingest.identifyInstall.settle(
                org: org, project: project, app: appId, installHash: install.installHash, recorded: .organic,
                metadata: metadata)
            // Only the install whose batch left a token granting attribution moves.
            #expect(settled == (inst == "S" ? .identity : .organic))
            #expect(try tier(fixture, app: app.appId, inst: inst) == settled.rawValue)
        }
        // Settling again (or racing the batch's own move) changes nothing more.
        #expect(try model.ingest.identifyInstall.settle(
            org: org, project: project, app: appId, installHash: Hex.encodeHMAC(app: app.appId, inst: "S"),
            recorded: .organic, metadata: metadata) == .identity)
        let moves = try fixture.apps.tenants.ownerConnection().query("""
            SELECT count(*) AS n FROM events WHERE event_type = 'AppInstallIdentified' AND data->>'appId' = $1
            """, [.text(app.appId)]).rows[0].string("n")
        #expect(moves == "1")
    }

    @Test func batchesAndTheirInstallsSentAtOnceAllEndIdentity() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let identity = #""xid":"\#(IngestIdentityTests.xid)""#
        let installs = (0..<10).map { "R-\($0)" }
        DispatchQueue.concurrentPerform(iterations: installs.count * 2) { index in
            let inst = installs[index / 2]
            if index % 2 == 0 {
                _ = fixture.batch(IngestIdentityTests.batch(app.key, inst: inst, identity: identity))
            } else {
                _ = fixture.install(IngestIdentityTests.install(app.key, inst: inst))
            }
        }
        for inst in installs { #expect(try tier(fixture, app: app.appId, inst: inst) == "identity", "\(inst)") }
    }
}
