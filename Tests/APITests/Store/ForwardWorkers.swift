import Commands
import Domain
import EventStore
import Foundation
import Postgres
import Redis
import Testing
import TestSupport
import Workers

/// The worker side of a deployment, in process and as `handoff work` builds it: the real `JobDispatcher` (its
/// subscription thread over the global log), a `JobRelay`, and one `forward` consumer running
/// `StoreForwardJob.kind` over `AppForwardTargets` — the apps write model's own lookup — on a Redis of its own.
///
/// The forwarder reaches the receivers only through host names pinned to addresses (`pinned`, `host:port:address`,
/// what a DNS answer would give) and the allow-list `allowed` (`FORWARD_ALLOWED_NETWORKS`): forward URLs may not name
/// an IP address when they are set, so a test's URLs name hosts.
final class ForwardWorkers: @unchecked Sendable {
    let redis: ScratchRedis
    let pool: Pool
    let redisPool: RedisPool
    let dispatcher: JobDispatcher
    let relay: JobRelay
    let consumer: JobConsumer
    private let owner: @Sendable () throws -> Connection

    init(database: ScratchDatabase, model: AppModel, allowed: String, pinned: [String]) throws {
        redis = try ScratchRedis()
        let configuration = PostgresConfiguration(url: database.appURL, poolSize: 3)
        pool = Pool(configuration: configuration)
        redisPool = RedisPool(configuration: try RedisConfiguration(url: redis.url, poolSize: 3, connectTimeout: 1,
                                                                    commandTimeout: 3))
        let forwarder = Forwarder(settings: Forwarder.Settings(
            allowed: try NetworkAllowList.parse(allowed).get(), timeout: 5, pinnedAddresses: pinned))
        let registry = JobRegistry([StoreForwardJob.kind(settings: StoreForwardSettings(
            forwarder: forwarder, targets: AppForwardTargets(lookup: model.lookup)))])
        dispatcher = JobDispatcher(configuration: configuration, registry: registry, onError: { error in
            Issue.record("dispatcher: \(error)")
        })
        relay = JobRelay(pool: pool, redis: redisPool, registry: registry)
        consumer = JobConsumer(queue: StoreForwardJob.queue, name: "e2e-\(UUID().uuidString)",
                               store: EventLog(pool: pool, projections: ProjectionRegistry.service),
                               redis: redisPool, registry: registry, visibilityTimeout: 60, blockMilliseconds: 100)
        let ownerURL = database.ownerURL
        owner = {
            try Connection(configuration: PostgresConfiguration(url: ownerURL, statementTimeoutMilliseconds: 0))
        }
        dispatcher.start()
    }

    deinit {
        dispatcher.stop()
        pool.close()
        redisPool.close()
    }

    /// The `store-forward` jobs of `org`, oldest first (the operator's view: the owner role).
    func jobs(org: String) throws -> [Job] {
        let connection = try owner()
        defer { connection.close() }
        return try JobStore.list(state: nil, org: UUID(uuidString: org), limit: 100, on: connection)
            .filter { $0.kind == StoreForwardJob.name }.reversed()
    }

    /// Relays and consumes until `org` has `count` `store-forward` jobs, none of them pending or enqueued; returns
    /// them. The dispatcher makes the jobs on its own thread once the events are below the global horizon (other
    /// tests' open transactions can hold that back for a moment), so this polls for up to 30 s.
    func drain(jobs count: Int, org: String) throws -> [Job] {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            _ = try relay.relayDue()
            _ = try consumer.step()
            let jobs = try jobs(org: org)
            if jobs.count >= count, jobs.allSatisfy({ $0.state != .pending && $0.state != .enqueued }) { return jobs }
        }
        let jobs = try jobs(org: org)
        Issue.record("after 30 s: \(jobs.count) of \(count) jobs, states \(jobs.map(\.state.rawValue))")
        return jobs
    }
}
