import Domain
import EventStore
import Foundation
import Postgres

/// Folds `AppLeadReceived` into `app_leads` (migration `0031_app_leads.sql`): one row per lead, contact data sealed as
/// the event carries it (the address's keyed hash resolved from the event's lookup reference, `LookupRefs`; NULL once
/// an erasure of the address deleted it). The double-submit rule and the S2S read use it.
public struct AppLeadProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["app_leads"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        guard event.eventType == AppLeadReceived.eventType else { return }
        let lead = try event.decode(AppLeadReceived.self)
        let emailHash = try LookupRefs.resolve(hash: lead.emailHash, ref: lead.emailRef, org: event.orgId,
                                               on: connection)
        try connection.query("""
            INSERT INTO \(tables["app_leads"]) (lead_id, org_id, project_id, app_id, org_seq, install_hash, session_id,
                form, event_id, contact_hash, email, email_hash, first_name, message, marketing_consent, fill_ms,
                received_at, source, identity)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13, $14,
                $15::boolean, $16::bigint, $17::timestamptz, $18, $19)
            """, [.text(lead.leadId), .text(event.orgId.lowercasedText), .text(lead.projectId),
                  .text(lead.appId), .int(event.orgSeq), .text(lead.installHash), .optional(lead.sessionId),
                  .text(lead.form), .optional(lead.eventId), .text(lead.contactHash), .optional(lead.email?.text),
                  .optional(emailHash), .optional(lead.firstName?.text), .optional(lead.message?.text),
                  .bool(lead.marketingConsent), .optional(lead.fillMs), .text(event.recordedAt),
                  .text(lead.source ?? "form"), .optional(lead.identity?.text)])
    }
}
