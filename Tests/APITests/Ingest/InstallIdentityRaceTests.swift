@testable import API
import Commands
import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Synchronization
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

    @Test func anInstallWhoseBatchLandsWhileItIsBeingRecordedAnswersIdentity() throws {
        let fixture = try IngestFixture.migrated()
        let app = try fixture.app()
        let database = fixture.apps.tenants.database
        // Hold the org's log counter: the install reads no token yet, then waits at its append.
        let holder = try fixture.apps.tenants.ownerConnection()
        try holder.query("BEGIN")
        try holder.query("SELECT last_seq FROM event_orgs WHERE org_id = $1::uuid FOR UPDATE", [.text(app.tenant.org)])
        let holderPid = try holder.query("SELECT pg_backend_pid()::text AS pid").rows[0].string("pid")
        let answer = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let text = bodyText(fixture.install(IngestIdentityTests.install(app.key, inst: "W")))
            answer.withLock { $0 = text }
            done.signal()
        }
        let admin = try Connection(configuration: PostgresConfiguration(url: database.adminURL))
        var blocked = false
        for _ in 0..<400 where !blocked {
            blocked = try admin.query("""
                SELECT count(*)::text AS n FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))
                """, [.text(holderPid)]).rows[0].string("n") != "0"
            if !blocked { usleep(25_000) }
        }
        #expect(blocked)
        // Now the batch stores the install's token and finds no install row (no purchase: it appends nothing).
        let identity = #""xid":"\#(IngestIdentityTests.xid)""#
        let batch = String(decoding: IngestIdentityTests.batch(app.key, inst: "W", identity: identity), as: UTF8.self)
            .replacingOccurrences(of: #""e":"purchase""#, with: #""e":"tap""#)
        #expect(fixture.batch(Array(batch.utf8)).status == 200)
        #expect(try tier(fixture, app: app.appId, inst: "W") == nil)
        try holder.query("COMMIT")
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(answer.withLock { $0 } == #"{"ok":true,"tier":"identity"}"#)
        #expect(try tier(fixture, app: app.appId, inst: "W") == "identity")
    }
}
