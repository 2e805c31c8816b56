import EventStore
import Foundation
import Postgres

/// Turns events into jobs: the named subscription `jobs-dispatcher` reads the global log and inserts each kind's
/// jobs for each event in the same transaction as its checkpoint (`ON CONFLICT (dedupe_key) DO NOTHING`), so every
/// job exists exactly once whatever crashes. One dispatcher is active at a time (the subscription's advisory lock).
public final class JobDispatcher: Sendable {
    /// The subscription's name (checkpoint row and advisory lock).
    public static let subscriptionName = "jobs-dispatcher"
    private let subscription: Subscription

    public init(configuration: PostgresConfiguration, registry: JobRegistry,
                clock: @escaping @Sendable () -> Date = { Date() },
                onError: @escaping @Sendable (any Error) -> Void = { _ in }) {
        subscription = Subscription(name: Self.subscriptionName, configuration: configuration, onError: onError) {
            events, connection in
            try Self.dispatch(events, registry: registry, now: clock(), on: connection)
        }
    }

    public func start() { subscription.start() }
    public func stop() { subscription.stop() }

    /// Inserts the jobs `events` make; returns how many were new. The caller's transaction commits them.
    @discardableResult
    public static func dispatch(_ events: [RecordedEvent], registry: JobRegistry, now: Date,
                                on connection: Connection) throws -> Int {
        var inserted = 0
        for event in events {
            for kind in registry.kinds {
                for job in try kind.jobs(event) where try JobStore.insert(job, now: now, on: connection) != nil {
                    inserted += 1
                }
            }
        }
        return inserted
    }
}
