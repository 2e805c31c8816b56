import BackgroundTasks
import Commands
import EventStore
import Foundation
import HTTPClient
import Postgres
import Redis
import Telemetry
import Workers

/// The workers of one `handoff work` (or `handoff dev`) process, started from a `Configuration`: the roles it was
/// asked for, each on threads of its own. `stop()` lets every job in progress finish, then closes the pools.
///
/// Roles (docs/jobs.md): `dispatcher` (events → jobs), `relay` (due jobs → Redis), `sweeper` (jobs Redis lost →
/// pending), `checkpoint` (signs chain heads, docs/audit.md), `ingest-retention` (app-ingest partitions,
/// docs/app-ingest.md; go-link clicks and recordings, issue 21), and one per queue whose jobs it runs: `mail`
/// (recovery mail), `forward` (store-notification forwards and signed heads to auditor URLs), `store` (Google Play
/// purchases read from the Play Developer API), `apple-ads` (Apple Ads tokens of `pending` installs resolved against
/// `APPLE_ADS_API_BASE_URL`) and `probe` (the harmless test kind).
public final class RunningWorkers: Sendable {
    /// The roles that are loops of their own rather than consumers of a queue.
    public static let loops = ["dispatcher", "relay", "sweeper", "checkpoint", "ingest-retention"]
    /// Every role, in the order they start.
    public static let roles = loops + [RecoveryMailJob.queue, StoreForwardJob.queue, GooglePlayJob.queue,
                                       ProbeJob.queue]
        + [AppleAdsJob.queue]

    private let dispatcher: JobDispatcher?
    private let tasks: [RepeatingTask]
    private let postgres: Pool
    private let redisPools: [RedisPool]
    private let logger: Logger

    /// Starts `roles` (names from `roles`); without the identity secrets, recovery mails that should go out fail.
    public init(configuration: Configuration, roles: Set<String>, logger: Logger) throws {
        self.logger = logger
        let queues = Set(Self.roles).subtracting(Self.loops).intersection(roles)
        let threads = configuration.workThreads
        let postgresConfiguration = PostgresConfiguration(
            url: configuration.databaseURL, poolSize: threads * max(1, queues.count) + 3,
            statementTimeoutMilliseconds: configuration.databaseStatementTimeoutMilliseconds,
            preparedStatements: configuration.databasePreparedStatements)
        postgres = Pool(configuration: postgresConfiguration)
        let redisTimeout = Double(configuration.redisTimeoutMilliseconds) / 1000
        // Consumers block up to 1 s in XREADGROUP: their command timeout must be longer than that.
        let redis = RedisPool(configuration: try RedisConfiguration(
            url: configuration.redisURL, poolSize: threads * max(1, queues.count) + 3, connectTimeout: redisTimeout,
            commandTimeout: max(redisTimeout, 3), sentinel: configuration.redisSentinel))
        redisPools = [redis]
        let store = EventLog(pool: postgres, projections: ProjectionRegistry.service,
                             commandBatch: configuration.commandBatchSize)
        let identity = configuration.identity.map { IdentityContext(log: store, secrets: $0) }
        if identity == nil && queues.contains(RecoveryMailJob.queue) {
            logger.warning("recovery mail jobs for known buyers go dead until HANDOFF_MASTER_KEY, "
                + "HANDOFF_LOOKUP_PEPPER and HANDOFF_PASS_KEYS are set")
        }
        let smtp = SMTPClient(configuration: SMTPConfiguration(url: configuration.smtpURL,
                                                               caFile: configuration.smtpCAFile))
        let settings = RecoveryMailSettings(
            smtp: smtp,
            fromAddress: configuration.mailFrom, fromName: configuration.mailFromName,
            sender: SendRecoveryMail(identity), publicBaseURL: configuration.publicBaseURL)
        let forwarder = Forwarder(settings: Forwarder.Settings(allowed: configuration.forwardAllowedNetworks,
                                                               caFile: configuration.forwardCAFile))
        let targets: any ForwardTargets = configuration.masterKeyRing.map {
            AppForwardTargets(lookup: AppModel(log: store, masterKeys: $0).lookup)
        } ?? NoForwardTargets()
        let googlePlay = GooglePlayJobSettings(
            apps: configuration.masterKeyRing.map { AppModel(log: store, masterKeys: $0) },
            baseURL: configuration.googlePlayAPIBaseURL)
        let registry = JobRegistry([
            RecoveryMailJob.kind(settings: settings),
            StoreForwardJob.kind(settings: StoreForwardSettings(forwarder: forwarder, targets: targets)),
            GooglePlayJob.kind(settings: googlePlay),
            ProbeJob.kind(redis: redis, smtp: smtp, mailFrom: configuration.mailFrom),
            AuditorForwardJob.kind(forwarder: forwarder),
            AppleAdsJob.kind(baseURL: configuration.appleAdsAPIBaseURL, keys: identity?.subjectKeys),
        ])
        let visibility = Double(configuration.jobVisibilityTimeoutSeconds)
        let onError: @Sendable (String) -> @Sendable (any Error) -> Void = { role in
            { error in logger.error("worker error", ["role": .string(role), "error": .string("\(error)")]) }
        }

        var tasks: [RepeatingTask] = []
        if roles.contains("relay") {
            let relay = JobRelay(pool: postgres, redis: redis, registry: registry)
            tasks.append(RepeatingTask(name: "relay", idleInterval: 0.05, onError: onError("relay")) {
                try relay.relayDue() > 0
            })
        }
        if roles.contains("sweeper") {
            let sweeper = JobSweeper(pool: postgres, redis: redis, registry: registry, checkAfter: visibility)
            tasks.append(RepeatingTask(name: "sweeper", idleInterval: min(5, visibility / 2),
                                       onError: onError("sweeper")) {
                // Each job Redis lost and Postgres put back is worth a line: the chaos run counts them by job.
                let swept = try sweeper.sweep()
                if swept.count > 0 {
                    logger.info("jobs swept back to pending", [
                        "requeued": .int(swept.count), "entriesLost": .int(swept.lost.count),
                        "jobs": .string((swept.lost + swept.unnoted).map(String.init).joined(separator: ",")),
                    ])
                }
                return swept.count > 0
            })
        }
        if roles.contains("ingest-retention") {
            // Hourly and at start: makes the next days' partitions and drops those past the retention (idempotent).
            let ingest = IngestRowStore(pool: postgres)
            let days = configuration.ingestRetentionDays
            // Issue 21: go-link clicks and session recordings, by their own retentions.
            let clicks = LinkClickRetention(pool: postgres), recordings = RecordingStore(pool: postgres)
            let clickDays = configuration.linkClickRetentionDays
            let recordingDays = configuration.recordingRetentionDays
            tasks.append(RepeatingTask(name: "ingest-retention", idleInterval: 3600,
                                       onError: onError("ingest-retention")) {
                try ingest.applyRetention(now: Date(), retentionDays: days)
                try clicks.apply(now: Date(), retentionDays: clickDays)
                try recordings.applyRetention(now: Date(), retentionDays: recordingDays)
                return false
            })
        }
        if roles.contains("checkpoint") {
            if let seed = configuration.auditSigningKey, let signer = ChainHeadSigner(seed: seed.bytes) {
                let checkpoint = Checkpoint(pool: postgres, signer: signer,
                                            interval: Double(configuration.checkpointIntervalSeconds))
                tasks.append(RepeatingTask(name: "checkpoint", idleInterval: checkpoint.idleInterval,
                                           onError: onError("checkpoint")) { try checkpoint.signDue() > 0 })
            } else {
                logger.warning("the checkpoint role signs no chain head until HANDOFF_AUDIT_SIGNING_KEY is set")
            }
        }
        var hostBytes = [CChar](repeating: 0, count: 256)
        let host = gethostname(&hostBytes, 255) == 0
            ? String(decoding: hostBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        let pid = getpid()
        // One entry per read: a job waits on SMTP or a receiver for tens of ms, so an entry prefetched behind another
        // in one consumer waits while other threads and processes idle (at the end of a burst, up to a batch of jobs'
        // time). One more XREADGROUP per job (a Redis round trip) is cheap next to that (issue 17 §4, bench/jobs).
        for queue in queues.sorted() {
            for index in 0..<threads {
                let consumer = JobConsumer(
                    queue: queue, name: "\(host)-\(pid)-\(queue)-\(index)", store: store, redis: redis,
                    registry: registry, visibilityTimeout: visibility, batchSize: 1,
                    onResult: { job, result, failure in
                        logger.log(failure == nil ? .debug : .warning, "job", [
                            "job_id": .int(job?.id ?? 0), "kind": .string(job?.kind ?? ""),
                            "result": .string("\(result)"), "error": .string(failure ?? ""),
                        ])
                    })
                tasks.append(RepeatingTask(name: "\(queue) \(index)", idleInterval: 0, onError: onError(queue)) {
                    task in
                    _ = try consumer.step(continuing: { !task.isStopping })
                    return true
                })
            }
        }
        self.tasks = tasks
        if roles.contains("dispatcher") {
            dispatcher = JobDispatcher(configuration: postgresConfiguration, registry: registry,
                                       onError: onError("dispatcher"))
        } else {
            dispatcher = nil
        }
        dispatcher?.start()
        tasks.forEach { $0.start() }
        logger.info("workers started", ["roles": .string(Self.roles.filter(roles.contains).joined(separator: ",")),
                                        "threads_per_queue": .int(threads)])
    }

    /// Stops every role after the job in progress (draining), then closes the pools: every loop is told first, then
    /// each is waited for, so no consumer starts another entry while others drain. Entries a consumer read but did
    /// not start stay unacknowledged and are reclaimed by another worker after the visibility timeout.
    public func stop() {
        logger.info("workers draining")
        for task in tasks { task.requestStop() }
        dispatcher?.stop()
        for task in tasks { task.join() }
        postgres.close()
        redisPools.forEach { $0.close() }
        logger.info("workers stopped")
        logger.flush()
    }
}
