import Domain
import Foundation
import Postgres

extension EventReader {
    /// The event `eventId` of `org`, or nil. `scope` as for `readStream` (nil inside a scoped transaction).
    public static func readEvent(org: UUID, eventId: UUID, on connection: Connection, in scope: OrgScope? = nil)
        throws -> RecordedEvent?
    {
        let sql = "SELECT \(RecordedEvent.columns) FROM events WHERE org_id = $1 AND event_id = $2::uuid"
        let parameters: [PostgresValue] = [.text(org.lowercasedText), .text(eventId.lowercasedText)]
        let result = try scope.map { try connection.queryPrepared(sql, parameters, in: $0) }
            ?? connection.queryPrepared(sql, parameters)
        return try result.rows.first.map(RecordedEvent.init)
    }
}
