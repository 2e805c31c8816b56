import EventStore
import Foundation
import Postgres
import Service
import Synchronization
import Testing
import TestSupport

/// Per stream: how many events and the last event's type; per org: events, last seq and the sum of `amount`.
struct StreamActivity: InlineProjection {
    var tables: [String] { ["audit_stream_activity", "audit_org_totals"] }

    func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let streams = tables["audit_stream_activity"]
        try connection.query("""
            INSERT INTO \(streams) (org_id, stream_id, events, last_type, last_version)
            VALUES ($1::uuid, $2, 1, $3, $4)
            ON CONFLICT (org_id, stream_id) DO UPDATE
                SET events = \(streams).events + 1, last_type = EXCLUDED.last_type,
                    last_version = EXCLUDED.last_version
            """, [.text(event.orgId.uuidString), .text(event.streamId), .text(event.eventType),
                  .int(event.streamVersion)])
        let totals = tables["audit_org_totals"]
        try connection.query("""
            INSERT INTO \(totals) (org_id, events, last_seq, amount) VALUES ($1::uuid, 1, $2, $3)
            ON CONFLICT (org_id) DO UPDATE
                SET events = \(totals).events + 1, last_seq = EXCLUDED.last_seq, amount = \(totals).amount + $3
            """, [.text(event.orgId.uuidString), .int(event.orgSeq),
                  .text(String(event.data["amount"]?.integerValue ?? 0))])
    }

    /// As a migration would create them (owner role), with a named secondary index and a check constraint, grants
    /// by table and by column, and row-level security on one of them (as migrations 0014 and 0015 do).
    static func createTables(on connection: Connection) throws {
        try connection.execute("""
            CREATE TABLE audit_stream_activity (
                org_id uuid NOT NULL, stream_id text NOT NULL, events int NOT NULL CHECK (events > 0),
                last_type text NOT NULL, last_version bigint NOT NULL, PRIMARY KEY (org_id, stream_id));
            CREATE INDEX audit_stream_activity_by_type ON audit_stream_activity (org_id, last_type);
            CREATE TABLE audit_org_totals (
                org_id uuid PRIMARY KEY, events bigint NOT NULL, last_seq bigint NOT NULL, amount bigint NOT NULL);
            GRANT SELECT, INSERT, UPDATE, DELETE ON audit_stream_activity TO handoff_app;
            GRANT SELECT, INSERT, UPDATE (events, last_seq, amount) ON audit_org_totals TO handoff_app;
            ALTER TABLE audit_org_totals ENABLE ROW LEVEL SECURITY;
            CREATE POLICY org_scope ON audit_org_totals
                USING (strpos(current_setting('handoff.org_id', true), org_id::text) > 0)
                WITH CHECK (strpos(current_setting('handoff.org_id', true), org_id::text) > 0);
            """)
    }
}

@Suite struct ReplayTests {
    private func snapshot(_ connection: Connection) throws -> [[String?]] {
        try connection.query("SELECT * FROM audit_stream_activity ORDER BY org_id, stream_id").rows.map(\.values)
            + [["--"]]
            + connection.query("SELECT * FROM audit_org_totals ORDER BY org_id").rows.map(\.values)
    }

    /// The tables (and `replay_` leftovers) named like `pattern` in the public schema, with their indexes, grants by
    /// table and by column, row-level security switches and policies.
    private func catalog(_ connection: Connection, like pattern: String = "audit\\_%") throws -> [String] {
        let tables = [PostgresValue.text(pattern)]
        return try connection.query("""
            SELECT relname || ':' || relkind::text AS entry FROM pg_class
            WHERE relnamespace = 'public'::regnamespace AND (relname LIKE $1 OR relname LIKE 'replay\\_%')
            ORDER BY relname
            """, tables).rows.map { try $0.string("entry") } + connection.query("""
            SELECT table_name || ':' || grantee || ':' || privilege_type AS entry
            FROM information_schema.role_table_grants WHERE table_schema = 'public' AND table_name LIKE $1 ORDER BY 1
            """, tables).rows.map { try $0.string("entry") } + connection.query("""
            SELECT table_name || ':' || column_name || ':' || grantee || ':' || privilege_type AS entry
            FROM information_schema.column_privileges WHERE table_schema = 'public' AND table_name LIKE $1 ORDER BY 1
            """, tables).rows.map { try $0.string("entry") } + connection.query("""
            SELECT c.relname || ':' || c.relrowsecurity || ':' || c.relforcerowsecurity AS entry FROM pg_class c
            WHERE c.relnamespace = 'public'::regnamespace AND c.relname LIKE $1 AND c.relkind = 'r'
            UNION ALL
            SELECT tablename || ':' || policyname || ':' || permissive || ':' || cmd || ':' || roles::text || ':'
                || coalesce(qual, '') || ':' || coalesce(with_check, '')
            FROM pg_policies WHERE schemaname = 'public' AND tablename LIKE $1 ORDER BY 1
            """, tables).rows.map { try $0.string("entry") }
    }

    /// Appends `count` one-event commands over `orgs` and a few streams each, from 4 threads.
    private func appendLoad(_ store: EventLog, orgs: [UUID], count: Int, types: [String]) {
        onThreads(4) { thread in
            for number in stride(from: thread, to: count, by: 4) {
                let org = orgs[number % orgs.count]
                let event = NewEvent(type: types[number % types.count], data: .object([
                    "amount": .integer(Int64(number * 7 % 1000)), "n": .integer(Int64(number)),
                ]))
                try? store.append(org: org, stream: "stream-\(number % 5)", expectedVersion: .any, events: [event],
                                  metadata: auditMetadata)
            }
        }
    }

    @Test func replayRebuildsTablesEqualRowForRowToTheLiveOnesAndSwapsThemIn() throws {
        let fixture = try AuditFixture.migrated()
        let owner = try fixture.ownerConnection()
        try StreamActivity.createTables(on: owner)
        let store = fixture.store(projections: [StreamActivity()])
        let orgs = (0..<6).map { _ in UUID() }
        appendLoad(store, orgs: orgs, count: 300, types: ["Opened", "Paid", "Redeemed"])
        let app = try fixture.appConnection()
        #expect(try owner.query("SELECT count(*) AS n FROM events").rows[0].int("n") == 300)
        let liveBefore = try snapshot(owner)
        let catalogBefore = try catalog(owner)
        #expect(liveBefore.count == 6 * 5 + 1 + 6)
        #expect(catalogBefore.contains("audit_org_totals:true:false"))

        // Make the live tables wrong, as a projection bug would: replay must not carry this over.
        try owner.execute("""
            UPDATE audit_org_totals SET amount = -1; DELETE FROM audit_stream_activity WHERE events > 5
            """)

        let seen = Mutex<[Replayer.Progress]>([])
        let report = try Replayer(projections: [StreamActivity()], pageSize: 64).run(on: owner) { progress in
            seen.withLock { $0.append(progress) }
        }
        #expect(report == Replayer.Report(rebuilt: 300, caughtUp: 0,
                                          tables: ["audit_stream_activity", "audit_org_totals"]))
        #expect(seen.withLock { $0.last } == Replayer.Progress(applied: 300, total: 300))
        #expect(seen.withLock { $0.count } >= 300 / 64)
        #expect(try snapshot(owner) == liveBefore)
        // Same tables, same index names, same grants (by table and by column), the same row-level security and
        // policy, no replay_ leftovers.
        #expect(try catalog(owner) == catalogBefore)

        // The service keeps appending into the swapped-in tables as the application role.
        try store.append(org: orgs[0], stream: "stream-0", expectedVersion: .any,
                         events: [NewEvent(type: "Closed", data: .object(["amount": .integer(5)]))],
                         metadata: auditMetadata)
        #expect(try app.query("SELECT last_type FROM audit_stream_activity WHERE org_id = $1::uuid AND stream_id = $2",
                              [.text(orgs[0].uuidString), "stream-0"]).rows[0].string("last_type") == "Closed")
        // Row-level security still holds on the swapped-in table: without a scope the application role sees nothing.
        #expect(try app.query("SELECT count(*) AS n FROM audit_org_totals").rows[0].int("n") == 0)
        #expect(try app.queryPrepared("SELECT count(*) AS n FROM audit_org_totals", in: .org(orgs[0]))
            .rows[0].int("n") == 1)
    }

    @Test func appendsDuringAReplayAreAppliedExactlyOnce() throws {
        let fixture = try AuditFixture.migrated()
        let owner = try fixture.ownerConnection()
        try StreamActivity.createTables(on: owner)
        let store = fixture.store(projections: [StreamActivity()])
        let orgs = (0..<5).map { _ in UUID() }
        appendLoad(store, orgs: orgs, count: 200, types: ["Opened", "Paid"])

        // A writer keeps appending while the replay rebuilds, catches up and swaps (small pages: many steps).
        let stop = Atomic<Bool>(false)
        let writerDone = DispatchSemaphore(value: 0)
        let written = Atomic<Int>(0)
        Thread {
            var number = 0
            while !stop.load(ordering: .acquiring) || number < 20 {
                let event = NewEvent(type: "Late", data: .object(["amount": .integer(Int64(number))]))
                if (try? store.append(org: orgs[number % orgs.count], stream: "late-\(number % 3)",
                                      expectedVersion: .any, events: [event], metadata: auditMetadata)) != nil {
                    written.add(1, ordering: .relaxed)
                }
                number += 1
            }
            writerDone.signal()
        }.start()
        let report = try Replayer(projections: [StreamActivity()], pageSize: 7).run(on: owner)
        stop.store(true, ordering: .releasing)
        writerDone.wait()

        let events = try owner.query("SELECT count(*) AS n FROM events").rows[0].int("n")
        #expect(events == 200 + written.load(ordering: .relaxed))
        #expect(report.rebuilt + report.caughtUp <= events)
        #expect(try owner.query("SELECT sum(events)::bigint AS n FROM audit_org_totals").rows[0].int("n") == events)
        // A quiet replay now must find the tables exactly as live left them.
        let live = try snapshot(owner)
        try Replayer(projections: [StreamActivity()]).run(on: owner)
        #expect(try snapshot(owner) == live)
        #expect(try AuditVerifier.verify(on: owner) == [])
    }

    @Test func replayRefusesAMissingTableAndLeavesNothingBehind() throws {
        let fixture = try AuditFixture.migrated()
        let owner = try fixture.ownerConnection()
        #expect(throws: ReplayError.missingTable("audit_stream_activity")) {
            try Replayer(projections: [StreamActivity()]).run(on: owner)
        }
        #expect(try owner.query("SELECT count(*) AS n FROM pg_class WHERE relname LIKE 'replay\\_%'")
            .rows[0].int("n") == 0)
    }

    @Test func handoffReplayKeepsEveryServiceTablesGrantsAndRowLevelSecurity() throws {
        let fixture = try AuditFixture.migrated()
        let owner = try fixture.ownerConnection()
        let before = try catalog(owner, like: "%")
        #expect(before.contains("payments:true:false"))
        #expect(before.contains("handoff_codes:redeemed_at:handoff_app:UPDATE"))
        #expect(!before.contains("handoff_codes:expires_at:handoff_app:UPDATE"))
        #expect(try fixture.handoff(["replay"]).status == .exited(0))
        #expect(try catalog(owner, like: "%") == before)
    }

    @Test func handoffReplayRebuildsTheRegisteredProjectionsAndRefusesUnknownArguments() throws {
        let fixture = try AuditFixture.migrated()
        let outcome = try fixture.handoff(["replay"])
        #expect(outcome.status == .exited(0))
        #expect(outcome.stdout == "replayed 0 events (0 during the swap) into organizations, projects, secret_keys, "
            + "buyers, buyer_emails, payments, handoff_codes, fingerprints, apps, app_store_tokens, app_destinations, "
            + "app_account_tokens, store_notifications, store_deliveries, surfaces, affiliate_campaigns, affiliates, "
            + "affiliate_clicks, affiliate_referrals, commissions, org_auditors, app_ingest_configs, app_leads, "
            + "app_installs, go_links, proxy_keys\n")
        // With nothing registered there is nothing to rebuild, and that is a success.
        #expect(ReplayCommand.run(arguments: [], environment: fixture.environment, projections: []) == 0)
        let refused = try fixture.handoff(["replay", "--fast"])
        #expect(refused.status == .exited(2))
        #expect(refused.stderr.contains("--fast"))
    }
}
