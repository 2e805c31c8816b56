import Domain
import EventStore
import Foundation
import Postgres

/// The forward attempts of an app (`store_deliveries`, filled by `DeliveryProjection`): what
/// `GET /s2s/v1/apps/{appId}/deliveries` and `handoff jobs show` print.
public struct DeliveryLog: Sendable {
    /// One attempt to forward one store notification to one destination.
    public struct Delivery: Sendable, Equatable {
        public var eventId: UUID
        /// The event's `org_seq`: the list's order and page cursor.
        public var sequence: Int
        public var appId: String
        public var notificationEventId: UUID
        public var destinationId: String
        public var jobId: Int
        public var attempt: Int
        /// True for `NotificationForwarded` (a 2xx answer), false for `ForwardFailed`.
        public var delivered: Bool
        public var urlHost: String
        public var status: Int?
        public var durationMs: Int
        public var answer: String
        public var error: String?
        /// RFC 3339 UTC, when the attempt was recorded.
        public var attemptedAt: String

        /// `{"eventId","notificationEventId","destinationId","jobId","attempt","delivered","urlHost","status",
        /// "durationMs","answer","error","attemptedAt"}` (`status` and `error` null when absent).
        public var json: EventJSON {
            .object([
                "eventId": .string(eventId.lowercasedText),
                "notificationEventId": .string(notificationEventId.lowercasedText),
                "appId": .string(appId), "destinationId": .string(destinationId), "jobId": .integer(Int64(jobId)),
                "attempt": .integer(Int64(attempt)), "delivered": .bool(delivered), "urlHost": .string(urlHost),
                "status": status.map { .integer(Int64($0)) } ?? .null, "durationMs": .integer(Int64(durationMs)),
                "answer": .string(answer), "error": error.map(EventJSON.string) ?? .null,
                "attemptedAt": .string(attemptedAt),
            ])
        }
    }

    /// One page, newest first; `nextAfter` is the cursor of the next (older) page, nil when this one is the last.
    public struct Page: Sendable, Equatable {
        public var deliveries: [Delivery]
        public var nextAfter: Int?

        /// `{"deliveries":[…],"nextAfter":N|null}`.
        public var json: EventJSON {
            .object(["deliveries": .array(deliveries.map(\.json)),
                     "nextAfter": nextAfter.map { .integer(Int64($0)) } ?? .null])
        }
    }

    /// The most deliveries one page holds.
    public static let maxLimit = 200

    private let log: EventLog

    public init(log: EventLog) {
        self.log = log
    }

    /// Up to `limit` (1–`maxLimit`) attempts of app `appId` in `org`, newest first; `after` (a page's `nextAfter`)
    /// continues with the attempts older than that cursor. Only `org`'s rows are ever read (row-level security).
    public func list(org: OrgID, appId: String, limit: Int, after: Int?) throws -> Page {
        let limit = max(1, min(limit, Self.maxLimit))
        let rows = try log.read(in: .org(org.uuid)) { connection in
            try connection.queryPrepared("""
                SELECT \(Self.columns) FROM store_deliveries
                WHERE org_id = $1::uuid AND app_id = $2 AND ($3::bigint IS NULL OR org_seq < $3::bigint)
                ORDER BY org_seq DESC LIMIT $4::bigint
                """, [.text(org.description), .text(appId), .optional(after), .int(limit + 1)]).rows
        }
        let deliveries = try rows.prefix(limit).map(Self.delivery)
        return Page(deliveries: deliveries, nextAfter: rows.count > limit ? deliveries.last?.sequence : nil)
    }

    /// Every attempt of job `jobId`, first to last, on `connection` (the owner's, for `handoff jobs show`; under the
    /// application role only the rows of the transaction's org scope).
    public static func attempts(jobId: Int, on connection: Connection) throws -> [Delivery] {
        try connection.queryPrepared("""
            SELECT \(columns) FROM store_deliveries WHERE job_id = $1::bigint ORDER BY org_seq
            """, [.int(jobId)]).rows.map(delivery)
    }

    private static let columns = """
        event_id::text AS event_id, org_seq, app_id, notification_event_id::text AS notification_event_id,
        destination_id, job_id, attempt, delivered, url_host, status, duration_ms, answer, error,
        to_char(attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS attempted_at
        """

    private static func delivery(_ row: Row) throws -> Delivery {
        guard let eventId = UUID(canonicalText: try row.string("event_id")),
              let notification = UUID(canonicalText: try row.string("notification_event_id")) else {
            throw EventStoreError.malformedRow("store_deliveries ids")
        }
        return Delivery(eventId: eventId, sequence: try row.int("org_seq"), appId: try row.string("app_id"),
                        notificationEventId: notification, destinationId: try row.string("destination_id"),
                        jobId: try row.int("job_id"), attempt: try row.int("attempt"),
                        delivered: try row.bool("delivered"), urlHost: try row.string("url_host"),
                        status: row.isNull("status") ? nil : try row.int("status"),
                        durationMs: try row.int("duration_ms"), answer: try row.string("answer"),
                        error: row["error"], attemptedAt: try row.string("attempted_at"))
    }
}
