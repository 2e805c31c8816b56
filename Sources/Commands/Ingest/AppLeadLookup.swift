import Domain
import EventStore
import Foundation
import Postgres

/// The leads of an app as its project reads them (`GET /s2s/v1/apps/{appId}/leads`): newest first, contact data
/// opened with the install's key (`{"erased":true}` once the install was erased).
public struct AppLeadLookup: Sendable {
    private let context: IdentityContext

    public init(_ context: IdentityContext) { self.context = context }

    /// Most leads in one page.
    public static let maxLimit = 200

    /// `{"leads":[…],"nextAfter":N|null}`: up to `limit` leads of `app` in `org`, newest first, each older than
    /// `org_seq` `after` when given; `nextAfter` is the last one's `org_seq` when more may follow, else null.
    public func page(org: OrgID, app: AppID, limit: Int, after: Int?) throws -> EventJSON {
        try context.log.read(in: .org(org.uuid)) { connection in
            let rows = try connection.query("""
                SELECT lead_id::text AS lead_id, org_seq, install_hash, session_id, form, event_id, email, first_name,
                    message, marketing_consent, fill_ms, source, identity,
                    to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS received_at
                FROM app_leads
                WHERE org_id = $1::uuid AND app_id = $2::uuid AND ($3::bigint IS NULL OR org_seq < $3::bigint)
                ORDER BY org_seq DESC LIMIT $4::integer
                """, [.text(org.description), .text(app.description), .optional(after), .int(limit + 1)]).rows
            /// The opened identity JSON as an object of hashes (null when absent; erased/unreadable as is).
            func identity(_ value: EventJSON) -> EventJSON {
                guard case .string(let text) = value else { return value }
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
                else { return .object(["unreadable": .bool(true)]) }
                return .object(object.mapValues(EventJSON.string))
            }
            var leads: [EventJSON] = []
            for row in rows.prefix(limit) {
                let subject = AppLeadStreams.installSubject(installHash: try row.string("install_hash"))
                func opened(_ column: String, _ field: PersonalDataField) throws -> EventJSON {
                    guard let text = row[column] else { return .null }
                    guard let sealed = SealedValue(text) else { return .object(["unreadable": .bool(true)]) }
                    switch try context.subjectKeys.reveal(sealed, field: field, org: org.uuid, subject: subject,
                                                          on: connection) {
                    case .value(let plain): return .string(plain)
                    case .erased: return .object(["erased": .bool(true)])
                    case .invalid: return .object(["unreadable": .bool(true)])
                    }
                }
                leads.append(.object([
                    "leadId": .string(try row.string("lead_id")),
                    "sessionId": row["session_id"].map(EventJSON.string) ?? .null,
                    "form": .string(try row.string("form")),
                    "eventId": row["event_id"].map(EventJSON.string) ?? .null,
                    "email": try opened("email", .email),
                    "firstName": try opened("first_name", .firstName),
                    "message": try opened("message", .message),
                    "marketingConsent": .bool(try row.bool("marketing_consent")),
                    "fillMs": try row.optionalInt("fill_ms").map { .integer(Int64($0)) } ?? .null,
                    "receivedAt": .string(try row.string("received_at")),
                    "source": .string(try row.string("source")),
                    "identity": try identity(opened("identity", .identity)),
                ]))
            }
            let next: EventJSON = rows.count > limit ? .integer(Int64(try rows[limit - 1].int("org_seq"))) : .null
            return .object(["leads": .array(leads), "nextAfter": next])
        }
    }
}
