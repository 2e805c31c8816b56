import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// `OrgScope`: the transaction-local org setting that row-level security keys on, as `EventLog` sets it.
@Suite struct OrgScopeTests {
    @Test func aTransactionSeesOnlyItsOrgAndAnAppendForAnotherOrgIsRefused() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let (orgA, orgB) = (UUID(), UUID())
        for org in [orgA, orgB] {
            try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(1)],
                             metadata: testMetadata)
        }
        let seen = try store.transact(in: .org(orgA)) { transaction in
            (try transaction.readStream(org: orgA, stream: "s").count,
             try transaction.readStream(org: orgB, stream: "s").count,
             try transaction.streamVersion(org: orgB, stream: "s"))
        }
        #expect(seen == (1, 0, 0))
        let error = #expect(throws: PostgresError.self) {
            try store.transact(in: .org(orgA), maxAttempts: 1) { transaction in
                try transaction.append(org: orgB, stream: "s", expectedVersion: .any, events: [sampleEvent(2)],
                                       metadata: testMetadata)
            }
        }
        #expect(error?.sqlState == "42501")
        #expect(error?.message.contains("row-level security") == true)
        #expect(try store.readHistory(org: orgB).map(\.orgSeq) == [1])
    }

    @Test func aLookupScopeTakesTheOrgItsFunctionAnswersAndNoneForAnUnknownKey() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let (org, project) = (UUID(), UUID())
        try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(1)],
                         metadata: testMetadata)
        try insertProject(project, of: org, fixture)
        let lookup = OrgLookup(function: "project_org")
        let found = try store.read(in: .orgOf(lookup, .text(project.uuidString))) { connection in
            (try connection.query("SELECT current_setting('handoff.org_id') AS org").rows[0].string("org"),
             try EventReader.readHistory(org: org, on: connection).count)
        }
        #expect(found == (org.uuidString.lowercased(), 1))
        let missing = try store.read(in: .orgOf(lookup, .text(UUID().uuidString))) { connection in
            (try connection.query("SELECT current_setting('handoff.org_id') AS org").rows[0].string("org"),
             try EventReader.readHistory(org: org, on: connection).count)
        }
        #expect(missing == ("", 0))
    }

    @Test func aCommandWithALookupScopeRunsUnderTheOrgTheLookupFoundOrUnderNoneWhenItFindsNone() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        let orgs = [UUID(), UUID()], projects = [UUID(), UUID()]
        for (org, project) in zip(orgs, projects) {
            try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(1)],
                             metadata: testMetadata)
            try insertProject(project, of: org, fixture)
        }
        let lookup = OrgLookup(function: "project_org")
        // Concurrent commands, so group commit batches some of them: each runs under its own project's org.
        let seen = Locked<[Int: (String, Int)]>([:])
        onThreads(8) { index in
            let project = projects[index % 2], org = orgs[index % 2]
            let found = try? store.transact(in: .orgOf(lookup, .text(project.uuidString))) { transaction in
                (try transaction.connection.query("SELECT current_setting('handoff.org_id') AS org").rows[0]
                    .string("org"),
                 try transaction.readStream(org: org, stream: "s").count)
            }
            seen.withLock { $0[index] = found ?? ("failed", -1) }
        }
        for index in 0..<8 {
            #expect(seen.value[index]?.0 == orgs[index % 2].uuidString.lowercased())
            #expect(seen.value[index]?.1 == 1)
        }
        let missing = try store.transact(in: .orgOf(lookup, .text(UUID().uuidString))) { transaction in
            (try transaction.connection.query("SELECT current_setting('handoff.org_id') AS org").rows[0]
                .string("org"),
             try transaction.readStream(org: orgs[0], stream: "s").count)
        }
        #expect(missing == ("", 0))
    }

    @Test func aScopedReadOnAPooledConnectionEndsWithItsStatement() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store(poolSize: 1)
        let org = UUID()
        try store.append(org: org, stream: "s", expectedVersion: .noStream, events: [sampleEvent(1)],
                         metadata: testMetadata)
        #expect(try store.readHistory(org: org).count == 1)
        // The same (only) pooled connection, right after: no scope left behind.
        let after = try store.pool.withConnection { connection in
            (try connection.query("SELECT count(*) AS n FROM events").rows[0].int("n"),
             try connection.query("SELECT coalesce(current_setting('handoff.org_id', true), '') AS org")
                .rows[0].string("org"))
        }
        #expect(after == (0, ""))
    }

    @Test func aBatchOfSeveralOrgsIsAppendedUnderTheScopeOfAllOfThem() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = EventLog(pool: Pool(configuration: fixture.appConfiguration(poolSize: 1)), batchLanes: 1)
        let orgs = (0..<6).map { _ in UUID() }
        let results = Locked<[Int]>([])
        onThreads(orgs.count) { index in
            let recorded = try? store.append(org: orgs[index], stream: "s", expectedVersion: .noStream,
                                             events: [sampleEvent(index)], metadata: testMetadata)
            results.withLock { $0.append(recorded?.first?.orgSeq ?? 0) }
        }
        #expect(results.value == Array(repeating: 1, count: orgs.count))
        for org in orgs { #expect(try store.readHistory(org: org).count == 1) }
    }

    /// A project of `org`, inserted as the owner (the lookup function `project_org` finds it).
    private func insertProject(_ project: UUID, of org: UUID, _ fixture: EventStoreFixture) throws {
        try fixture.ownerConnection().query("""
            INSERT INTO projects (project_id, org_id, name, fingerprint, tracker, created_at, updated_at)
            VALUES ($1::uuid, $2::uuid, 'Scoped', true, 'none', now(), now())
            """, [.text(project.uuidString), .text(org.uuidString)])
    }
}
