import Foundation
import Postgres
import Testing
import TestSupport

/// `handoff work --only ingest-retention` (issue 20): at start it drops app-ingest partitions past
/// `INGEST_RETENTION_DAYS` and makes the next days', whole days only.
@Suite struct IngestRetentionRoleTests {
    @Test func theRoleDropsDaysPastTheRetentionAndKeepsTheRest() throws {
        let fixture = try JobFixture()
        let owner = try Connection(configuration: PostgresConfiguration(url: fixture.database.ownerURL, poolSize: 1))
        // Days 40 and 10 days ago get partitions; a retention of 30 days drops the first only.
        try owner.execute("""
            SELECT ingest_ensure_partitions(current_date - 40, current_date - 40);
            SELECT ingest_ensure_partitions(current_date - 10, current_date - 10)
            """)
        func partitions(_ daysAgo: Int) throws -> String {
            try owner.query("""
                SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'ingest_parts' AND c.relname LIKE '%\\_' || to_char(current_date - $1::integer,
                    'YYYYMMDD')
                """, [PostgresValue.int(daysAgo)]).rows[0].string("n")
        }
        #expect(try partitions(40) == "3" && partitions(10) == "3")
        let environment = ["INGEST_RETENTION_DAYS": "30"]
        let worker = try ChildProcess(
            [try HandoffBinary.path(), "work", "--only", "ingest-retention"],
            environment: ProcessInfo.processInfo.environment.merging([
                "DATABASE_URL": fixture.database.appURL, "REDIS_URL": fixture.redis.url, "LOG_LEVEL": "warning",
            ].merging(environment) { $1 }) { $1 })
        defer { worker.signal(SIGTERM); _ = try? worker.wait(timeout: 30) }
        #expect(try fixture.waitUntil(timeout: 30) { try partitions(40) == "0" })
        #expect(try partitions(10) == "3")
        #expect(try partitions(-2) == "3")
    }
}
