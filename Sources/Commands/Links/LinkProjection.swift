import Domain
import EventStore
import Foundation
import Postgres

/// Folds `GoLinkCreated` into `go_links` and `ProxyKeyIssued` into `proxy_keys` (migration `0032_go_links.sql`): one
/// row per link or key; `ProxyKeyRevoked` sets a key's `revoked_at` (0038), nothing else changes.
public struct LinkProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["go_links", "proxy_keys"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        if event.eventType == ProxyKeyRevoked.eventType {
            let revoked = try event.decode(ProxyKeyRevoked.self)
            try connection.query("""
                UPDATE \(tables["proxy_keys"]) SET revoked_at = $3::timestamptz
                WHERE proxy_key_id = $1::uuid AND org_id = $2::uuid AND revoked_at IS NULL
                """, [.text(revoked.proxyKeyId), .text(event.orgId.lowercasedText), .text(event.recordedAt)])
            return
        }
        if event.eventType == ProxyKeyIssued.eventType {
            let issued = try event.decode(ProxyKeyIssued.self)
            try connection.query("""
                INSERT INTO \(tables["proxy_keys"])
                    (proxy_key_id, org_id, key_hash, visible_prefix, domains, created_at)
                VALUES ($1::uuid, $2::uuid, $3, $4, $5::text[], $6::timestamptz)
                """, [.text(issued.proxyKeyId), .text(event.orgId.lowercasedText), .text(issued.keyHash),
                      .text(issued.visiblePrefix), .text("{" + issued.domains.joined(separator: ",") + "}"),
                      .text(event.recordedAt)])
            return
        }
        guard event.eventType == GoLinkCreated.eventType else { return }
        let link = try event.decode(GoLinkCreated.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let utm = String(decoding: try encoder.encode(link.utm), as: UTF8.self)
        try connection.query("""
            INSERT INTO \(tables["go_links"]) (link_id, org_id, project_id, token, code, ios_app_id, android_app_id,
                fallback_url, utm, app_store_pt, app_store_ct, created_at)
            VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6::uuid, $7::uuid, $8, $9::jsonb, $10, $11,
                    $12::timestamptz)
            """, [.text(link.linkId), .text(event.orgId.lowercasedText), .text(link.projectId),
                  .text(link.token), .optional(link.code), .optional(link.iosAppId), .optional(link.androidAppId),
                  .text(link.fallbackUrl), .text(utm), .optional(link.appStoreProviderToken),
                  .optional(link.appStoreCampaignToken), .text(event.recordedAt)])
    }
}
