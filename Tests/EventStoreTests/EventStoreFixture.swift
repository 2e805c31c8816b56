import Domain
import EventStore
import Foundation
import Migrate
import Postgres
import Synchronization
import TestSupport

/// A fresh database migrated with the bundled migrations, and ways to reach it as owner, app role and superuser.
struct EventStoreFixture {
    let database: ScratchDatabase

    /// Creates and migrates a database of its own.
    static func migrated() throws -> EventStoreFixture {
        EventStoreFixture(database: try ScratchDatabase.migrated(prefix: "events"))
    }

    /// The application role's configuration (INSERT and SELECT on events), as `serve` and `work` use it.
    func appConfiguration(poolSize: Int = 4) -> PostgresConfiguration {
        PostgresConfiguration(url: database.appURL, poolSize: poolSize, checkoutTimeout: 30)
    }

    func appConnection() throws -> Connection { try Connection(configuration: appConfiguration()) }
    func ownerConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.ownerURL))
    }
    func adminConnection() throws -> Connection {
        try Connection(configuration: PostgresConfiguration(url: database.adminURL))
    }

    /// An `EventLog` over a pool of the application role.
    func store(poolSize: Int = 4, projections: [any InlineProjection] = []) -> EventLog {
        EventLog(pool: Pool(configuration: appConfiguration(poolSize: poolSize)), projections: projections)
    }
}

/// A value shared between test threads.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R { try mutex.withLock { try body(&$0) } }
    var value: Value { mutex.withLock { $0 } }
}

/// Starts `body` on a new thread; `wait()` on the returned semaphore joins it.
func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done
}

let testMetadata = EventMetadata(actor: .system("tests"), requestId: "req-test", correlationId: "corr-test")

/// A small event with an integer payload.
func sampleEvent(_ number: Int, type: String = "SampleRecorded") -> NewEvent {
    NewEvent(type: type, data: .object(["number": .integer(Int64(number)), "label": .string("event \(number)")]))
}

/// The error thrown to roll a transaction back on purpose.
struct DeliberateRollback: Error {}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass; returns whether it held.
func waitUntil(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}
