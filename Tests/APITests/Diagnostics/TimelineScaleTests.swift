@testable import API
@testable import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import Testing

/// Timelines and the handoff report in a large organization (issue 18): with 200,000 events of 25,000 other buyers
/// in the org, a buyer's timeline reads that buyer's events through the indexes of migration 0041 and not the org's
/// log, and the report judges a day of 1,440 payments. The plan is checked by the buffers it touches (stable), the
/// timings are printed for docs/diagnostics.md "Cost" (they vary with the machine), with the query before 0041 beside.
@Suite struct TimelineScaleTests {
    typealias W = DiagnosticsWorld

    static let otherBuyers = 25_000
    /// Eight events per other buyer: created, paid, two codes, page opened, fingerprint, match, and one event that
    /// names no buyer (an app install).
    static let otherEvents = otherBuyers * 8

    /// The timeline's query before migration 0041: one pass over the org's log with every name OR-ed, which no
    /// index can answer. Kept to measure what the indexes and `BuyerTimelines.factsSQL` changed.
    static let scanningSQL = """
        SELECT org_seq, event_type, data::text AS data,
            to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at
        FROM events
        WHERE org_id = $1::uuid AND (
            data->>'guid' = $2 OR data->>'fromGuid' = $2 OR data->>'toGuid' = $2
            OR (jsonb_typeof(data->'guids') = 'array' AND data->'guids' @> jsonb_build_array($2::text))
            OR data->>'paymentId' IN (SELECT payment_id FROM payments WHERE org_id = $1::uuid AND guid = $2)
            OR (event_type = 'EmailRecoveryRequested' AND data->>'emailHash' IN (
                SELECT email_hash FROM buyer_emails WHERE org_id = $1::uuid AND guid = $2))
            OR (event_type = 'EmailRecoveryRequested' AND data->>'emailRef' IN (
                SELECT r.ref FROM buyer_emails b JOIN lookup_refs r ON r.org_id = b.org_id AND r.kind = 'email'
                    AND r.hash = b.email_hash
                WHERE b.org_id = $1::uuid AND b.guid = $2)))
        ORDER BY org_seq LIMIT $3
        """

    @Test func aBuyersTimelineInAnOrganizationOf200000EventsReadsOnlyThatBuyersEvents() throws {
        let diagnostics = try W()
        let world = diagnostics.world
        let owner = try world.fixture.ownerConnection()
        let seeding = try Self.measure { try Self.seed(owner, org: world.tenant.org, project: world.tenant.project) }
        let since = PaymentFields.text(Date().addingTimeInterval(-60))
        let payment = try world.pay()
        #expect(world.capture(payment.token).status == 204)
        world.clock.advance(60)
        #expect(world.resolve(world.probe()).status == 200)
        try owner.execute("ANALYZE events; ANALYZE payments; ANALYZE buyers")
        let pages = try owner.query("SELECT pg_relation_size('events') / 8192 AS pages").rows[0].int("pages")

        let indexed = try plan(world, BuyerTimelines.factsSQL)
        #expect(!indexed.scansEvents, "\(indexed.nodes)")
        #expect(indexed.buffers * 50 < pages, "\(indexed.buffers) buffers of \(pages) pages")
        let scanning = try plan(world, Self.scanningSQL)
        #expect(scanning.buffers >= pages, "\(scanning.buffers) buffers of \(pages) pages: \(scanning.nodes)")
        #expect(indexed.orgSeqs == scanning.orgSeqs && indexed.orgSeqs.count >= 6, "\(indexed.orgSeqs)")

        let answer = diagnostics.timeline()
        #expect(W.lines(answer) == ["BuyerCreated: Buyer created."] + TimelineTests.paid + [
            TimelineTests.captured,
            "FingerprintMatched: Fingerprint matched exactly (IP, platform, screen, time zone): the app learned the "
                + "guid.",
        ])
        #expect(W.verdict(answer)["path"] == "fingerprintExact", "\(bodyText(answer))")
        let timeline = try Self.median(5) { #expect(bodyText(diagnostics.timeline()) == bodyText(answer)) }
        let own = try Self.median(3) {
            #expect(jsonObject(report(world, ["from": since]))["payments"] as? Int == 1)
        }
        let day = try Self.measure {
            let funnel = jsonObject(report(world, ["from": "2026-01-01T00:00:00Z", "to": "2026-01-02T00:00:00Z"]))
            #expect(funnel["payments"] as? Int == 1440)
            let identified = funnel["identified"] as? [String: [String: Int]]
            #expect(identified?["within1h"]?["count"] == 1440, "\(identified ?? [:])")
        }
        print("""
            TimelineScaleTests: \(Self.otherEvents) events of other buyers (events: \(pages) pages), seeded in \
            \(seeding) ms; timeline SQL with 0041: \(indexed.milliseconds) ms, \(indexed.buffers) buffers; \
            the query before 0041: \(scanning.milliseconds) ms, \(scanning.buffers) buffers; GET timeline \
            \(timeline) ms; report of 1 payment \(own) ms; report of a day of 1440 payments \(day) ms
            """)
    }

    @Test func theBuyersPositionsAreAnsweredOnlyForAnOrganizationInTheCallersScope() throws {
        let diagnostics = try W(settings: ["--fingerprint", "off"])
        let world = diagnostics.world
        _ = try world.pay()
        let other = try world.fixture.tenant()
        let app = try Connection(configuration: PostgresConfiguration(url: world.fixture.database.appURL))
        defer { app.close() }
        // `buyer_event_seqs` runs as the owner, past row-level security: it must check the scope itself.
        func positions(scope: String?) throws -> Int {
            try app.execute("BEGIN")
            defer { _ = try? app.execute("ROLLBACK") }
            if let scope { try app.query("SELECT set_config('handoff.org_id', $1, true)", [.text(scope)]) }
            return try app.query("SELECT count(*) AS n FROM buyer_event_seqs($1::uuid, $2, 100)",
                                 [.text(world.tenant.org), .text(PaymentTests.guidA)]).rows[0].int("n")
        }
        #expect(try positions(scope: world.tenant.org) >= 4)
        #expect(try positions(scope: other.org) == 0)
        #expect(try positions(scope: nil) == 0)
        #expect(try positions(scope: "") == 0)
    }

    /// `GET /s2s/v1/reports/handoff` with `query`.
    func report(_ world: FingerprintFixture, _ query: [String: String]) -> Response {
        var request = s2sRequest(.get, "/s2s/v1/reports/handoff", key: world.tenant.key)
        request.query = query
        return world.api.respond(to: request)
    }

    /// What a timeline query (`sql`, parameters as `BuyerTimelines.factsSQL`'s) does for `PaymentTests.guidA`, as the
    /// service runs it: the application role under the org's scope; and the `org_seq`s it answers.
    func plan(_ world: FingerprintFixture, _ sql: String) throws -> Plan {
        let app = try Connection(configuration: PostgresConfiguration(url: world.fixture.database.appURL))
        defer { app.close() }
        try app.execute("BEGIN")
        defer { _ = try? app.execute("ROLLBACK") }
        try app.query("SELECT set_config('handoff.org_id', $1, true)", [.text(world.tenant.org)])
        // One process, so the buffers counted are all the query touched.
        try app.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        let parameters: [PostgresValue] = [.text(world.tenant.org), .text(PaymentTests.guidA),
                                           .int(BuyerTimelines.maxEvents + 1)]
        let orgSeqs = try app.query(sql, parameters).rows.map { try $0.int("org_seq") }
        let text = try app.query("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, parameters).rows[0]
            .string("QUERY PLAN")
        let root = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.first)
        let top = try #require(root["Plan"] as? [String: Any])
        return Plan(top: top, milliseconds: (root["Execution Time"] as? Double).map { Int($0.rounded()) } ?? -1,
                    orgSeqs: orgSeqs)
    }

    /// A query plan as EXPLAIN (FORMAT JSON) gives it.
    struct Plan {
        let top: [String: Any]
        let milliseconds: Int
        let orgSeqs: [Int]

        /// Shared buffers the query touched (hit or read), over all its nodes.
        var buffers: Int { (top["Shared Hit Blocks"] as? Int ?? 0) + (top["Shared Read Blocks"] as? Int ?? 0) }

        /// Every node as `<node type> <relation>`.
        var nodes: [String] {
            func walk(_ node: [String: Any]) -> [String] {
                ["\(node["Node Type"] ?? "?") \(node["Relation Name"] ?? "")"]
                    + ((node["Plans"] as? [[String: Any]]) ?? []).flatMap(walk)
            }
            return walk(top)
        }

        /// Whether a node reads the whole `events` table.
        var scansEvents: Bool { nodes.contains("Seq Scan events") }
    }

    /// Inserts `otherEvents` events of `otherBuyers` buyers into `org`'s log after its last event, and their buyers
    /// and payments rows, in a few statements (the owner, behind the append path: their hash chain is not valid, and
    /// nothing in this test verifies it). Buyer `b` paid at 2026-01-01 00:00 UTC + `b` minutes and was matched by
    /// fingerprint 10 minutes later.
    static func seed(_ owner: Connection, org: String, project: String) throws {
        try owner.execute("""
            CREATE FUNCTION pg_temp.rfc3339(timestamptz) RETURNS text LANGUAGE sql IMMUTABLE
                AS $$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$
            """)
        let named = """
            named AS (
                SELECT b, md5('seed-buyer-' || b)::uuid::text AS g, 'pi_seed_' || b AS pid,
                    timestamptz '2026-01-01 00:00:00+00' + b * interval '1 minute' AS t
                FROM generate_series(0, \(otherBuyers - 1)) AS b)
            """
        try owner.query("""
            WITH \(named),
            base AS (SELECT last_seq FROM event_orgs WHERE org_id = $1::uuid),
            kinds AS (
                SELECT k, (ARRAY['BuyerCreated', 'PaymentRecorded', 'HandoffCodeMinted', 'HandoffCodeMinted',
                    'PostPaymentPageOpened', 'FingerprintRecorded', 'FingerprintMatched',
                    'AppInstallRecorded'])[k + 1] AS name
                FROM generate_series(0, 7) AS k)
            INSERT INTO events (org_id, org_seq, stream_id, stream_version, event_id, event_type, schema_version, data,
                metadata, recorded_at, prev_hash, hash)
            SELECT $1::uuid, base.last_seq + 1 + b * 8 + k, 'seed-' || b, k + 1, gen_random_uuid(), name, 1,
                CASE k
                WHEN 0 THEN jsonb_build_object('guid', g, 'projectId', $2::text)
                WHEN 1 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'projectId', $2::text, 'amount', 999,
                    'currency', 'EUR', 'productId', 'com.app.pro_monthly', 'entitlement', 'pro')
                WHEN 2 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'kind', 'handoff', 'source', 'payment',
                    'codeHash', md5(pid) || md5(g), 'expiresAt', pg_temp.rfc3339(t + interval '72 hours'))
                WHEN 3 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'kind', 'install', 'source', 'payment',
                    'codeHash', md5(g) || md5(pid), 'expiresAt', pg_temp.rfc3339(t + interval '30 days'))
                WHEN 4 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'platform', 'ios', 'language', 'en',
                    'openedAt', pg_temp.rfc3339(t + interval '1 minute'))
                WHEN 5 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'platform', 'ios', 'screen', '393x852',
                    'timezone', 'Europe/Berlin', 'recordedAt', pg_temp.rfc3339(t + interval '1 minute'))
                WHEN 6 THEN jsonb_build_object('guid', g, 'paymentId', pid, 'matchMethod', 'exact',
                    'matchedAt', pg_temp.rfc3339(t + interval '10 minutes'))
                ELSE jsonb_build_object('appId', $2::text, 'installHash', md5(g) || md5(g), 'tier', 'organic')
                END,
                '{}'::jsonb, t, sha256(int8send(b * 8 + k)), sha256(int8send(b * 8 + k + 1))
            FROM named, kinds, base
            """, [.text(org), .text(project)])
        try owner.query("UPDATE event_orgs SET last_seq = last_seq + $2::bigint WHERE org_id = $1::uuid",
                        [.text(org), .int(otherEvents)])
        try owner.query("""
            WITH \(named)
            INSERT INTO buyers (guid, org_id, project_id, created_at) SELECT g, $1::uuid, $2::uuid, t FROM named
            """, [.text(org), .text(project)])
        try owner.query("""
            WITH \(named)
            INSERT INTO payments (org_id, payment_id, guid, project_id, amount, currency, product_id, entitlement,
                body_hash, recorded_at)
            SELECT $1::uuid, pid, g, $2::uuid, 999, 'EUR', 'com.app.pro_monthly', 'pro', md5(pid) || md5(g), t
            FROM named
            """, [.text(org), .text(project)])
    }

    /// Milliseconds `body` took.
    static func measure(_ body: () throws -> Void) throws -> Int {
        let start = ContinuousClock.now
        try body()
        let elapsed = start.duration(to: .now).components
        return Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
    }

    /// The median milliseconds of `runs` runs of `body`.
    static func median(_ runs: Int, _ body: () throws -> Void) throws -> Int {
        try (0..<runs).map { _ in try measure(body) }.sorted()[runs / 2]
    }
}
