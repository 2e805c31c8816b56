import Commands
import Domain
import EventStore
import Foundation
import Testing
import TestSupport

/// The `fingerprints` table behind the fingerprint endpoints (issue 5): captures and resolves racing, expired rows
/// swept, replay rebuilding it.
@Suite struct FingerprintStorageTests {
    typealias F = FingerprintFixture

    @Test func capturesRacingAMatchNeverMatchTwiceNorBringTheRowBack() throws {
        let world = try F(poolSize: 12)
        let rounds = 40
        for round in 0..<rounds {
            let ip = "198.51.100.\(round + 1)"
            let paymentId = "pi_race_\(round)"
            let paid = try world.pay(paymentId: paymentId)
            #expect(world.capture(paid.token, ip: ip).status == 204)
            let statuses = Statuses()
            // Threads of their own: `concurrentPerform` runs only as many lanes at once as there are cores.
            let group = DispatchGroup()
            for lane in 0..<10 {
                group.enter()
                Thread {
                    let response = lane % 5 == 2 ? world.resolve(world.probe(), ip: ip)
                        : world.capture(paid.token, ip: ip)
                    statuses.add(response.status)
                    group.leave()
                }.start()
            }
            group.wait()
            #expect(statuses.sorted == [200] + Array(repeating: 204, count: 8) + [404], "round \(round)")
            #expect(try !world.rows().contains { try $0.string("payment_id") == paymentId }, "round \(round)")
            #expect(world.resolve(world.probe(), ip: ip).status == 404, "round \(round)")
        }
        #expect(try world.count("FingerprintMatched") == rounds)
        let owner = try world.fixture.ownerConnection()
        let twice = try owner.query("""
            SELECT count(*) AS n FROM (SELECT stream_id FROM events WHERE event_type = 'FingerprintMatched'
                GROUP BY stream_id HAVING count(*) > 1) AS s
            """).rows[0].int("n")
        #expect(twice == 0)
        // After the match no FingerprintRecorded follows in any stream.
        let late = try owner.query("""
            SELECT count(*) AS n FROM events r JOIN events m ON m.org_id = r.org_id AND m.stream_id = r.stream_id
            WHERE r.event_type = 'FingerprintRecorded' AND m.event_type = 'FingerprintMatched'
                AND r.stream_version > m.stream_version
            """).rows[0].int("n")
        #expect(late == 0)
    }

    @Test func concurrentResolvesSpendOneFingerprintExactlyOnce() throws {
        let world = try F(poolSize: 8)
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        world.clock.advance(60)
        let statuses = Statuses()
        onThreads(16) { _ in
            statuses.add(world.resolve(world.probe()).status)
        }
        #expect(statuses.sorted == [200] + Array(repeating: 404, count: 15))
        #expect(try world.count("FingerprintMatched") == 1)
    }

    @Test func expiredFingerprintsAreDeletedByTheNextFingerprintEventOfTheirOrganization() throws {
        let world = try F()
        let first = try world.pay(paymentId: "pi_old")
        #expect(world.capture(first.token).status == 204)
        world.clock.advance(7200.5)
        let second = try world.pay(paymentId: "pi_new")
        #expect(world.capture(second.token, ip: "203.0.113.40").status == 204)
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_new"])
    }

    @Test func expiredRowsOfAnyOrganizationAreSweptByTheNextCaptureOrResolveOfAnother() throws {
        let world = try F()
        let owner = try world.fixture.ownerConnection()
        let quiet = try world.fixture.tenant(["--fingerprint", "on"])
        for (payment, expiry) in [("pi_expired", "now() - interval '2 hours'"),
                                  ("pi_just_expired", "now() - interval '10 seconds'"),
                                  ("pi_live", "now() + interval '1 hour'")] {
            try owner.query("""
                INSERT INTO fingerprints (org_id, payment_id, project_id, guid, platform, screen, ip_hash, paid_at,
                    expires_at, recorded_at)
                VALUES ($1::uuid, $2, $3::uuid, $4::uuid, 'ios', '393x852', repeat('a', 64),
                    \(expiry) - interval '2 hours', \(expiry), \(expiry) - interval '1 hour')
                """, [.text(quiet.org), .text(payment), .text(quiet.project), .text(PaymentTests.guidA)])
        }
        // The quiet org sends nothing; a resolve in another org sweeps its expired row (not the one within the
        // minute's margin, nor the live one).
        #expect(world.resolve(world.probe()).status == 404)
        let left = try owner.query("SELECT payment_id FROM fingerprints WHERE org_id = $1::uuid ORDER BY payment_id",
                                   [.text(quiet.org)]).rows.map { try $0.string("payment_id") }
        #expect(left == ["pi_just_expired", "pi_live"])
        // At most once per interval per process.
        let sweep = FingerprintSweep(interval: 3600, batch: 1)
        #expect(sweep.runIfDue(on: world.api.environment.model.log.pool) == 0)
        #expect(sweep.runIfDue(on: world.api.environment.model.log.pool) == nil)
    }

    @Test func replayDoesNotBringBackAFingerprintThatExpiredByTheDatabaseClock() throws {
        let world = try F()
        let paid = try world.pay()
        #expect(world.capture(paid.token).status == 204)
        let store = world.api.environment.model.log
        // Version 1 events (the IP's keyed hash in clear, as recorded before lookup references) still fold: the
        // live one adds its row, the expired one none.
        func versionOne(_ paymentId: String, paidAt: String, expiresAt: String, recordedAt: String) throws
            -> NewEvent {
            let recorded = FingerprintRecorded(
                paymentId: paymentId, guid: PaymentTests.guidA, projectId: world.tenant.project, platform: "ios",
                screen: "393x852", timezone: nil, language: nil, ipRef: String(repeating: "c", count: 64),
                userAgent: nil, paidAt: paidAt, expiresAt: expiresAt, recordedAt: recordedAt)
            guard case .object(var members) = try recorded.eventJSON() else { throw InconsistentState("no object") }
            members["ipRef"] = nil
            members["ipHash"] = .string(String(repeating: "b", count: 64))
            return NewEvent(type: FingerprintRecorded.eventType, schemaVersion: 1, data: .object(members))
        }
        let org = try #require(UUID(uuidString: world.tenant.org))
        for (paymentId, paidAt, expiresAt, recordedAt) in [
            ("pi_stale", "2020-01-01T08:00:00.000Z", "2020-01-01T10:00:00.000Z", "2020-01-01T08:10:00.000Z"),
            ("pi_v1", "2027-01-15T08:00:00.000Z", "2027-01-15T10:00:00.000Z", "2027-01-15T08:00:30.000Z"),
        ] {
            let event = try versionOne(paymentId, paidAt: paidAt, expiresAt: expiresAt, recordedAt: recordedAt)
            _ = try store.transact(in: .org(org)) { transaction in
                try transaction.append(org: org, stream: FingerprintStreams.fingerprint(paymentId: paymentId),
                                       expectedVersion: .noStream, events: [event],
                                       metadata: EventMetadata(actor: .system("test")))
            }
        }
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_1", "pi_v1"])
        #expect(try world.rows().map { try $0.string("ip_hash") }.last == String(repeating: "b", count: 64))
        let owner = try world.fixture.ownerConnection()
        try owner.execute("DELETE FROM fingerprints")
        _ = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(try world.rows().map { try $0.string("payment_id") } == ["pi_1", "pi_v1"])
    }

    @Test func replayRebuildsTheFingerprintTableEqualToTheLiveOne() throws {
        let world = try F()
        for index in 0..<4 {
            let paid = try world.pay(guid: index % 2 == 0 ? PaymentTests.guidA : F.guidB, paymentId: "pi_\(index)")
            #expect(world.capture(paid.token, ip: "203.0.113.\(50 + index)").status == 204)
        }
        world.clock.advance(60)
        #expect(world.resolve(world.probe(), ip: "203.0.113.51").status == 200)
        let owner = try world.fixture.ownerConnection()
        let snapshot = { try owner.query("SELECT * FROM fingerprints ORDER BY org_id, payment_id").rows.map(\.values) }
        let live = try snapshot()
        #expect(live.count == 3)
        try owner.execute("DELETE FROM fingerprints")
        let report = try Replayer(projections: ProjectionRegistry.service).run(on: owner)
        #expect(report.tables.contains("fingerprints"))
        #expect(try snapshot() == live)
        let grants = try owner.query("""
            SELECT string_agg(privilege_type, ',' ORDER BY privilege_type) AS p
            FROM information_schema.table_privileges WHERE table_name = 'fingerprints' AND grantee = 'handoff_app'
            """).rows[0]["p"]
        #expect(grants == "DELETE,INSERT,SELECT")
        // UPDATE only of the columns a later visit of the page replaces (migration 0014), kept by the replay too.
        let updatable = try owner.query("""
            SELECT string_agg(column_name, ',' ORDER BY column_name) AS c FROM information_schema.column_privileges
            WHERE table_name = 'fingerprints' AND grantee = 'handoff_app' AND privilege_type = 'UPDATE'
            """).rows[0]["c"]
        #expect(updatable == "ip_hash,language,platform,recorded_at,screen,timezone")
    }
}
