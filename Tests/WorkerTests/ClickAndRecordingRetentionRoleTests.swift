import Foundation
import Postgres
import Testing
import TestSupport

/// `handoff work --only ingest-retention` (issue 21): besides the ingest partitions it deletes go-link clicks past
/// `LINK_CLICK_RETENTION_DAYS` and recording packets past `RECORDING_RETENTION_DAYS`, with the sessions they empty
/// and the screenshots no packet used since — for every organization, keeping everything younger.
@Suite struct ClickAndRecordingRetentionRoleTests {
    @Test func theRoleDeletesClicksAndRecordingsPastTheirRetentionsAndKeepsTheRest() throws {
        let fixture = try JobFixture()
        let owner = try Connection(configuration: PostgresConfiguration(url: fixture.database.ownerURL, poolSize: 1))
        let orgs = [UUID().uuidString.lowercased(), UUID().uuidString.lowercased()]
        let app = UUID().uuidString.lowercased()
        for (index, org) in orgs.enumerated() {
            // Per org: a click 40 days old and one 10 days old.
            try owner.execute("""
                INSERT INTO link_clicks (click_token, org_id, project_id, link_id, platform, visitor_hash, test,
                    clicked_at)
                VALUES ('\(index)old' || repeat('A', 18), '\(org)', gen_random_uuid(), gen_random_uuid(), 'web',
                        repeat('a', 64), false, now() - interval '40 days'),
                       ('\(index)new' || repeat('A', 18), '\(org)', gen_random_uuid(), gen_random_uuid(), 'web',
                        repeat('a', 64), false, now() - interval '10 days')
                """)
        }
        let org = orgs[0]
        // Session S-old: one old packet. Session S-mixed: an old packet and a recent one. Two screenshots, one
        // last used 40 days ago, one 10 days ago.
        try owner.execute("""
            INSERT INTO recording_sessions (org_id, project_id, app_id, session_id, install_hash, secret_hash, platform,
                created_at)
            VALUES ('\(org)', gen_random_uuid(), '\(app)', 'S-old', repeat('b', 64), repeat('c', 64), 'ios',
                    now() - interval '40 days'),
                   ('\(org)', gen_random_uuid(), '\(app)', 'S-mixed', repeat('b', 64), repeat('c', 64), 'ios',
                    now() - interval '40 days');
            INSERT INTO recording_packets (org_id, app_id, session_id, seq, started_at, ended_at, event_count, events,
                received_at)
            VALUES ('\(org)', '\(app)', 'S-old', 0, now(), now(), 1, '\\x7b7d', now() - interval '40 days'),
                   ('\(org)', '\(app)', 'S-mixed', 0, now(), now(), 1, '\\x7b7d', now() - interval '40 days'),
                   ('\(org)', '\(app)', 'S-mixed', 1, now(), now(), 1, '\\x7b7d', now() - interval '10 days');
            INSERT INTO recording_assets (org_id, app_id, sha256, mime, bytes, created_at, last_used_at)
            VALUES ('\(org)', '\(app)', repeat('d', 64), 'image/png', '\\x00', now() - interval '50 days',
                    now() - interval '40 days'),
                   ('\(org)', '\(app)', repeat('e', 64), 'image/png', '\\x00', now() - interval '50 days',
                    now() - interval '10 days')
            """)
        func rows(_ sql: String) throws -> [String] {
            try owner.query(sql).rows.map { try $0.string("k") }
        }
        let environment = ["LINK_CLICK_RETENTION_DAYS": "30", "RECORDING_RETENTION_DAYS": "30"]
        let worker = try ChildProcess(
            [try HandoffBinary.path(), "work", "--only", "ingest-retention"],
            environment: ProcessInfo.processInfo.environment.merging([
                "DATABASE_URL": fixture.database.appURL, "REDIS_URL": fixture.redis.url, "LOG_LEVEL": "warning",
            ].merging(environment) { $1 }) { $1 })
        defer { worker.signal(SIGTERM); _ = try? worker.wait(timeout: 30) }
        #expect(try fixture.waitUntil(timeout: 30) {
            try rows("SELECT sha256 AS k FROM recording_assets") == [String(repeating: "e", count: 64)]
        })
        #expect(try rows("SELECT click_token AS k FROM link_clicks ORDER BY 1")
                == ["0new" + String(repeating: "A", count: 18), "1new" + String(repeating: "A", count: 18)])
        #expect(try rows("SELECT session_id || ':' || seq AS k FROM recording_packets") == ["S-mixed:1"])
        #expect(try rows("SELECT session_id AS k FROM recording_sessions") == ["S-mixed"])
    }
}
