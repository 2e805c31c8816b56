import EventStore
import Foundation

/// A kind of job: which events make it, where it queues, how often it is retried, and what it does.
///
/// Register kinds in a `JobRegistry`; the dispatcher asks every kind about every event, workers look kinds up by
/// `name`. Later kinds (store-notification forwarding) plug in the same way.
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
    /// Performs a job and returns its outcome text (`sent`, `skipped: …`). Runs inside the transaction that holds the
    /// job's row lock and will mark it done: append outcome events through `run.transaction`. Throw to fail the
    /// attempt (`JobFailure(permanent: true)` skips the rest of the ladder); the transaction is then rolled back.
    public let perform: @Sendable (JobRun) throws -> String

    public init(name: String, queue: String, retryDelays: [Double],
                jobs: @escaping @Sendable (RecordedEvent) throws -> [NewJob],
                perform: @escaping @Sendable (JobRun) throws -> String) {
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

/// One attempt at a job, handed to `JobKind.perform`.
public struct JobRun {
    public let job: Job
    /// The open transaction holding the job's row lock; its commit also marks the job done.
    public let transaction: EventTransaction
    /// The worker's clock at the start of the attempt.
    public let now: Date
}

/// A failed attempt: `permanent` ones go straight to `dead`, others climb the retry ladder.
public struct JobFailure: Error, Sendable, CustomStringConvertible {
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
