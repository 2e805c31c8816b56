import EventStore
import Foundation
import Postgres
import Testing

@Suite struct SubscriptionTests {
    /// Writes one `effects` row per event on the subscription's transaction.
    private static func writeEffects(_ events: [RecordedEvent], _ connection: Connection) throws {
        for event in events {
            try connection.query("INSERT INTO effects (event_id) VALUES ($1::uuid)", [.text(event.eventId.uuidString)])
        }
    }

    private func effectCounts(_ connection: Connection) throws -> [UUID: Int] {
        var counts: [UUID: Int] = [:]
        for row in try connection.query("SELECT event_id, count(*) AS n FROM effects GROUP BY event_id").rows {
            counts[UUID(uuidString: try row.string("event_id"))!] = try row.int("n")
        }
        return counts
    }

    private func appendEvents(_ store: EventLog, count: Int) throws -> [UUID] {
        let orgs = (0..<3).map { _ in UUID() }
        return try (0..<count).flatMap { number in
            try store.append(org: orgs[number % 3], stream: "s", expectedVersion: .any, events: [sampleEvent(number)],
                             metadata: testMetadata).map(\.eventId)
        }
    }

    @Test func aSubscriberKilledBetweenEffectAndCheckpointResumesWithoutLosingOrRepeatingAnEffect() throws {
        let fixture = try EventStoreFixture.migrated()
        // No unique constraint on purpose: a repeated effect would show up as a second row.
        try fixture.ownerConnection().execute("""
            CREATE TABLE effects (event_id uuid NOT NULL); GRANT SELECT, INSERT ON effects TO handoff_app
            """)
        let store = fixture.store()
        var appended = try appendEvents(store, count: 30)
        let app = try fixture.appConnection()

        // Run 1: the first batch kills its own backend after writing its effects (a crash before the checkpoint
        // commits), the second throws after writing them; the loop reconnects, takes the lock again and goes on.
        let failures = Locked(0)
        let errors = Locked<[String]>([])
        let first = Subscription(
            name: "effects", configuration: fixture.appConfiguration(),
            options: .init(batchSize: 7, idlePollInterval: 0.01, errorBackoff: 0.05),
            onError: { error in errors.withLock { $0.append(String(describing: error)) } },
            handler: { events, connection in
                try Self.writeEffects(events, connection)
                switch failures.withLock({ $0 += 1; return $0 }) {
                case 1: try connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
                case 2: throw DeliberateRollback()
                default: break
                }
            })
        first.start()
        #expect(try waitUntil(timeout: 20) { try effectCounts(app).count == appended.count })
        first.stop()
        #expect(errors.value.count == 2)

        // Run 2: a new consumer of the same name continues from the checkpoint.
        appended += try appendEvents(store, count: 10)
        let second = Subscription(name: "effects", configuration: fixture.appConfiguration(),
                                  options: .init(batchSize: 7, idlePollInterval: 0.01),
                                  handler: { events, connection in try Self.writeEffects(events, connection) })
        second.start()
        #expect(try waitUntil(timeout: 20) { try effectCounts(app).count == appended.count })
        Thread.sleep(forTimeInterval: 0.1)
        second.stop()

        let counts = try effectCounts(app)
        #expect(Set(counts.keys) == Set(appended))
        #expect(counts.values.allSatisfy { $0 == 1 })
        let last = try store.readGlobal(after: .start, limit: 1000).last
        #expect(try Subscription.checkpoint(name: "effects", on: app) == last?.checkpoint)
    }

    @Test func onlyOneConsumerPerNameIsActiveAndTheOtherTakesOverWhenItStops() throws {
        let fixture = try EventStoreFixture.migrated()
        let store = fixture.store()
        var appended = try appendEvents(store, count: 12)
        let handled = Locked<[(consumer: Int, event: UUID)]>([])
        func consumer(_ number: Int) -> Subscription {
            Subscription(name: "pair", configuration: fixture.appConfiguration(),
                         options: .init(batchSize: 5, idlePollInterval: 0.01, lockPollInterval: 0.05),
                         handler: { events, _ in handled.withLock { $0 += events.map { (number, $0.eventId) } } })
        }
        let (one, two) = (consumer(1), consumer(2))
        one.start()
        two.start()
        #expect(waitUntil(timeout: 20) { handled.value.count == appended.count })
        #expect(waitUntil(timeout: 5) { one.isActive != two.isActive })
        let (active, standby) = one.isActive ? (one, two) : (two, one)
        #expect(Set(handled.value.map(\.consumer)).count == 1)

        active.stop()
        appended += try appendEvents(store, count: 6)
        #expect(waitUntil(timeout: 20) { handled.value.count == appended.count })
        #expect(standby.isActive)
        standby.stop()
        #expect(handled.value.map(\.event).sorted { $0.uuidString < $1.uuidString }
                == appended.sorted { $0.uuidString < $1.uuidString })
    }
}
