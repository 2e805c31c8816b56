import Domain
import EventStore
import Foundation
import Postgres

/// Folds buyer events into `buyers` and `buyer_emails` (migration `0006_buyers.sql`).
///
/// `buyers` has one row per guid (its org and home project) and is UNIQUE on (org_id, external_id), which is what
/// makes "one guid per externalId" hold under concurrent requests; `buyer_emails` holds lookup hashes only, and
/// `EmailVerified` sets its row's `verified`. Events of version 2 name the address by its lookup reference, resolved
/// through `lookup_refs` (`LookupRefs`); one whose reference an erasure deleted adds no row.
public struct BuyerProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["buyers", "buyer_emails"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        switch event.eventType {
        case BuyerCreated.eventType:
            let created = try event.decode(BuyerCreated.self)
            connection.queueWrite("""
                INSERT INTO \(tables["buyers"]) (guid, org_id, project_id, external_id, created_at)
                VALUES ($1, $2::uuid, $3::uuid, $4, $5::timestamptz)
                """, [.text(created.guid), org, .text(created.projectId), .optional(created.externalId),
                      .text(event.recordedAt)])
            if let hash = try LookupRefs.resolve(hash: created.emailHash, ref: created.emailRef, org: event.orgId,
                                                 on: connection) {
                connection.queueWrite("""
                    INSERT INTO \(tables["buyer_emails"]) (org_id, guid, email_hash, verified, created_at)
                    VALUES ($1::uuid, $2, $3, false, $4::timestamptz)
                    """, [org, .text(created.guid), .text(hash), .text(event.recordedAt)])
            }
        case BuyerEmailAttached.eventType:
            let attached = try event.decode(BuyerEmailAttached.self)
            guard let hash = try LookupRefs.resolve(hash: attached.emailHash, ref: attached.emailRef,
                                                    org: event.orgId, on: connection) else { return }
            connection.queueWrite("""
                INSERT INTO \(tables["buyer_emails"]) (org_id, guid, email_hash, verified, created_at)
                VALUES ($1::uuid, $2, $3, false, $4::timestamptz) ON CONFLICT (guid, email_hash) DO NOTHING
                """, [org, .text(attached.guid), .text(hash), .text(event.recordedAt)])
        case EmailVerified.eventType:
            let verified = try event.decode(EmailVerified.self)
            guard let hash = try LookupRefs.resolve(hash: verified.emailHash, ref: verified.emailRef,
                                                    org: event.orgId, on: connection) else { return }
            connection.queueWrite("""
                UPDATE \(tables["buyer_emails"]) SET verified = true WHERE guid = $1 AND email_hash = $2
                """, [.text(verified.guid), .text(hash)])
        default:
            return
        }
    }
}
