import Domain
import EventStore
import Foundation
import Postgres

/// One row of the `jobs` table: a unit of work the workers perform once (docs/jobs.md).
public struct Job: Sendable, Equatable {
    /// Where a job is in its life. Only Postgres knows; Redis only carries `enqueued` jobs to workers.
    public enum State: String, Sendable, CaseIterable {
        /// Waiting for `runAt`; the relay hands due ones to Redis.
        case pending
        /// In a Redis Stream (or in a worker's hands).
        case enqueued
        /// Performed; `outcome` says how.
        case done
        /// Failed on every rung of its kind's retry ladder (or permanently); `handoff jobs retry` revives it.
        case dead
    }

    public var id: Int
    public var kind: String
    /// The organization the job works for; nil for jobs of no organization.
    public var orgId: UUID?
    public var payload: EventJSON
    public var dedupeKey: String
    public var state: State
    /// Failed attempts so far.
    public var attempt: Int
    public var runAt: Date
    public var lastError: String?
    public var outcome: String?
    public var streamEntry: String?
    /// How often an operator revived it from `dead`.
    public var retries: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?
    /// The last attempt a worker claimed (two-phase jobs, docs/jobs.md); nil before the first claim.
    public var attemptId: UUID?
    public var attemptStartedAt: Date?
    /// While in the future, the claimed attempt belongs to its worker; nil once it finished or failed.
    public var leaseUntil: Date?
    /// What the kind fixed at its first attempt for the retries (`JobRun.remember`); `{}` when nothing.
    public var memo: EventJSON

    /// The job as printed by `handoff jobs list|show` (times RFC 3339 UTC).
    public var json: EventJSON {
        func time(_ date: Date?) -> EventJSON { date.map { .string(JobTime.text($0)) } ?? .null }
        func text(_ value: String?) -> EventJSON { value.map(EventJSON.string) ?? .null }
        return .object([
            "id": .integer(Int64(id)), "kind": .string(kind), "orgId": text(orgId?.lowercasedText),
            "payload": payload, "dedupeKey": .string(dedupeKey), "state": .string(state.rawValue),
            "attempt": .integer(Int64(attempt)), "runAt": time(runAt), "lastError": text(lastError),
            "outcome": text(outcome), "retries": .integer(Int64(retries)), "createdAt": time(createdAt),
            "updatedAt": time(updatedAt), "finishedAt": time(finishedAt),
            "attemptId": text(attemptId?.lowercasedText), "attemptStartedAt": time(attemptStartedAt),
            "leaseUntil": time(leaseUntil), "memo": memo,
        ])
    }

    /// The columns `init(row:)` reads, for SELECT lists.
    static let columns = """
        job_id, kind, org_id::text AS org_id, payload::text AS payload, dedupe_key, state, attempt,
        extract(epoch FROM run_at)::float8 AS run_at, last_error, outcome, stream_entry, retries,
        extract(epoch FROM created_at)::float8 AS created_at, extract(epoch FROM updated_at)::float8 AS updated_at,
        extract(epoch FROM finished_at)::float8 AS finished_at, attempt_id::text AS attempt_id,
        extract(epoch FROM attempt_started_at)::float8 AS attempt_started_at,
        extract(epoch FROM lease_until)::float8 AS lease_until, memo::text AS memo
        """

    init(row: Row) throws {
        id = try row.int("job_id")
        kind = try row.string("kind")
        orgId = row["org_id"].flatMap(UUID.init(canonicalText:))
        payload = try EventJSON.parse(try row.string("payload"))
        dedupeKey = try row.string("dedupe_key")
        guard let parsed = State(rawValue: try row.string("state")) else {
            throw EventStoreError.malformedRow("job state \(try row.string("state"))")
        }
        state = parsed
        attempt = try row.int("attempt")
        runAt = Date(timeIntervalSince1970: try row.double("run_at"))
        lastError = row["last_error"]
        outcome = row["outcome"]
        streamEntry = row["stream_entry"]
        retries = try row.int("retries")
        createdAt = Date(timeIntervalSince1970: try row.double("created_at"))
        updatedAt = Date(timeIntervalSince1970: try row.double("updated_at"))
        finishedAt = try Self.date(row, "finished_at")
        attemptId = row["attempt_id"].flatMap(UUID.init(canonicalText:))
        attemptStartedAt = try Self.date(row, "attempt_started_at")
        leaseUntil = try Self.date(row, "lease_until")
        memo = try EventJSON.parse(try row.string("memo"))
    }

    private static func date(_ row: Row, _ column: String) throws -> Date? {
        row.isNull(column) ? nil : Date(timeIntervalSince1970: try row.double(column))
    }
}

/// A job to create: the dispatcher inserts it unless a job with its `dedupeKey` exists.
public struct NewJob: Sendable, Equatable {
    public var kind: String
    public var orgId: UUID?
    public var payload: EventJSON
    /// Unique over all jobs, e.g. `recovery-mail:<event id>`.
    public var dedupeKey: String
    /// When it may run first; nil = at once.
    public var runAt: Date?

    public init(kind: String, orgId: UUID?, payload: EventJSON, dedupeKey: String, runAt: Date? = nil) {
        self.kind = kind
        self.orgId = orgId
        self.payload = payload
        self.dedupeKey = dedupeKey
        self.runAt = runAt
    }
}

/// Times of the jobs table: Swift dates go in as epoch seconds (`to_timestamp`), come out as epoch seconds.
enum JobTime {
    /// RFC 3339 UTC with milliseconds.
    static func text(_ date: Date) -> String {
        let utc = TimeZone(identifier: "UTC")!
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: utc))
    }
}
