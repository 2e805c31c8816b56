import Domain
import EventStore
import Foundation
import Postgres

/// A kind of job: which events make it, where it queues, how often it is retried, and what it does.
///
/// Register kinds in a `JobRegistry`; the dispatcher asks every kind about every event, workers look kinds up by
/// `name`.
///
/// An attempt has up to three phases (docs/jobs.md, "One job, in a worker"), so that no database transaction is
/// held open across network I/O: `perform` runs in the **claim** transaction, which holds the job's row lock — it
/// decides, writes what must be committed before the I/O, and returns a `JobPlan`; `.done` ends the job there. A
/// `.effect` claims the attempt (attempt id, lease), commits, runs the effect's I/O outside any transaction, then
/// records its result in a new **outcome** transaction, which applies only while the job still carries that attempt
/// id — so it is idempotent by attempt id, and a crash between the phases leaves the job to be claimed again once
/// the lease passed.
public struct JobKind: Sendable {
    /// Stored in `jobs.kind`: lowercase letters, digits and `-`.
    public let name: String
    /// The Redis Stream (and `handoff work --only` role) whose workers run it, e.g. `mail`.
    public let queue: String
    /// The retry ladder in seconds: after failed attempt n (1-based) the job runs again `retryDelays[n-1]` later;
    /// after `retryDelays.count + 1` failed attempts it is `dead`.
    public let retryDelays: [Double]
    /// The jobs an event makes (usually none); called by the dispatcher inside its checkpoint transaction.
    public let jobs: @Sendable (RecordedEvent) throws -> [NewJob]
    /// The claim phase: runs inside the transaction that holds the job's row lock, in the job's org scope. Append
    /// through `run.transaction` what must be committed before any I/O, and return the plan. Throw to fail the
    /// attempt (`JobFailure(permanent: true)` skips the rest of the ladder); the transaction is then rolled back.
    public let perform: @Sendable (JobRun) throws -> JobPlan

    public init(name: String, queue: String, retryDelays: [Double],
                jobs: @escaping @Sendable (RecordedEvent) throws -> [NewJob],
                perform: @escaping @Sendable (JobRun) throws -> JobPlan) {
        self.name = name
        self.queue = queue
        self.retryDelays = retryDelays
        self.jobs = jobs
        self.perform = perform
    }

    /// Seconds until the next attempt after `failedAttempts` failures, or nil when the ladder is exhausted.
    public func delay(afterFailedAttempts failedAttempts: Int) -> Double? {
        failedAttempts >= 1 && failedAttempts <= retryDelays.count ? retryDelays[failedAttempts - 1] : nil
    }
}

/// What the claim phase of an attempt decided.
public enum JobPlan: Sendable {
    /// The job is done with this outcome text (`skipped: …`), with nothing to do outside the database: it commits
    /// with the claim transaction's writes.
    case done(String)
    /// I/O to run outside any transaction, then its result recorded in the outcome transaction.
    case effect(JobEffect)
}

/// The I/O of an attempt and how its result is recorded.
public struct JobEffect: Sendable {
    /// The longest the I/O can take, in seconds (its own timeouts); the attempt's lease is this plus the visibility
    /// timeout.
    public let timeout: Double
    /// Runs the I/O; returns the recorder of its result.
    let run: @Sendable () -> @Sendable (JobRecording) throws -> JobVerdict

    /// `perform` runs on the worker's thread with no transaction open: network I/O bounded by its own timeouts,
    /// at most `timeout` seconds; it does not throw but returns what happened. `record` gets that result in the
    /// outcome transaction (the job's row locked, the org's scope entered): it appends the outcome events and returns
    /// the verdict, which commits with them. Throwing from `record` rolls the outcome transaction back and fails the
    /// attempt on the ladder.
    public init<Result: Sendable>(timeout: Double, perform: @escaping @Sendable () -> Result,
                                  record: @escaping @Sendable (Result, JobRecording) throws -> JobVerdict) {
        self.timeout = timeout
        run = {
            let result = perform()
            return { try record(result, $0) }
        }
    }
}

/// How an attempt ended, as the outcome transaction records it.
public enum JobVerdict: Sendable, Equatable {
    /// The job is done, with this outcome text.
    case done(String)
    /// The attempt failed: the job climbs its retry ladder (or goes `dead`); events appended in the same outcome
    /// transaction are kept.
    case failed(JobFailure)
}

/// The claim phase of one attempt, handed to `JobKind.perform`.
public struct JobRun {
    public let job: Job
    /// The open claim transaction holding the job's row lock.
    public let transaction: EventTransaction
    /// The worker's clock at the start of the attempt.
    public let now: Date
    /// The id of this attempt; the outcome transaction applies only while the job still carries it.
    public let attemptId: UUID
    /// `JOB_VISIBILITY_TIMEOUT_SECONDS` of the consumer.
    public let visibilityTimeout: Double

    /// Until when an attempt whose effect takes at most `effectTimeout` seconds belongs to this worker: `now` +
    /// `effectTimeout` + the visibility timeout. After that another worker may claim the job again (this one
    /// crashed).
    public func leaseUntil(effectTimeout: Double) -> Date {
        now.addingTimeInterval(effectTimeout + visibilityTimeout)
    }

    /// Keeps `memo` on the job (it commits with the claim): later attempts see it as `job.memo`. For what a kind
    /// fixes at its first attempt so that retries send identical bytes.
    public func remember(_ memo: EventJSON) throws {
        try JobStore.remember(job.id, memo: memo, on: transaction.connection)
    }
}

/// The outcome phase of one attempt, handed to a `JobEffect`'s `record`.
public struct JobRecording {
    /// The job as locked in the outcome transaction (`attempt` counts the failed attempts before this one).
    public let job: Job
    /// The open outcome transaction; its commit records the verdict too.
    public let transaction: EventTransaction
    /// The worker's clock after the I/O.
    public let now: Date
    public let attemptId: UUID
}

/// A failed attempt: `permanent` ones go straight to `dead`, others climb the retry ladder.
public struct JobFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public let permanent: Bool

    public init(_ reason: String, permanent: Bool = false) {
        self.reason = reason
        self.permanent = permanent
    }

    public var description: String { reason }
}

/// The job kinds a process knows, by name.
public struct JobRegistry: Sendable {
    public let kinds: [JobKind]

    public init(_ kinds: [JobKind]) {
        self.kinds = kinds
    }

    /// The kind named `name`, or nil.
    public func kind(_ name: String) -> JobKind? { kinds.first { $0.name == name } }

    /// Every queue some kind uses, sorted.
    public var queues: [String] { Array(Set(kinds.map(\.queue))).sorted() }
}
