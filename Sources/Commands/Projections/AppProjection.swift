import Domain
import EventStore
import Foundation
import Postgres

/// Folds app events into `apps`, `app_store_tokens`, `app_destinations` and `app_account_tokens` (migration
/// `0017_apps.sql`).
///
/// Secrets and store tokens are written as the events carry them, sealed (`pd1.…`). Times come from the event's
/// `recorded_at`, so a replay writes the same rows as the live appends did. A second live store token or default
/// destination for one app, or a second token for one (org, guid), fails its insert here (the tables' unique keys):
/// the racing command runs again and sees the winner.
public struct AppProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["apps", "app_store_tokens", "app_destinations", "app_account_tokens"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let at = PostgresValue.text(event.recordedAt)
        switch event.eventType {
        case AppCreated.eventType:
            let created = try event.decode(AppCreated.self)
            try connection.query("""
                INSERT INTO \(tables["apps"]) (app_id, org_id, project_id, platform, bundle_id, app_apple_id,
                    revenuecat_secret, google_push_audience, google_push_service_account, google_service_account_key,
                    meta_install_referrer_key, created_at, updated_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6::bigint, $7, $8, $9, $10, $11, $12::timestamptz,
                    $12::timestamptz)
                """, [.text(created.facts.appId), org, .text(created.facts.projectId), .text(created.facts.platform),
                      .text(created.facts.bundleId)] + Self.values(created.facts) + [at])
            try insertToken(hash: created.storeTokenHash, sealed: created.storeToken, app: created.facts.appId,
                            org: org, at: at, tables: tables, on: connection)
        case AppUpdated.eventType:
            let facts = try event.decode(AppUpdated.self).facts
            try connection.query("""
                UPDATE \(tables["apps"]) SET bundle_id = $3, app_apple_id = $4::bigint, revenuecat_secret = $5,
                    google_push_audience = $6, google_push_service_account = $7, google_service_account_key = $8,
                    meta_install_referrer_key = $9, updated_at = $10::timestamptz
                WHERE app_id = $1::uuid AND org_id = $2::uuid
                """, [.text(facts.appId), org, .text(facts.bundleId)] + Self.values(facts) + [at])
        case AppStoreTokenRotated.eventType:
            let rotated = try event.decode(AppStoreTokenRotated.self)
            try connection.query("""
                UPDATE \(tables["app_store_tokens"]) SET retired_at = $3::timestamptz
                WHERE token_hash = $1 AND org_id = $2::uuid AND retired_at IS NULL
                """, [.text(rotated.retiredTokenHash), org, at])
            try insertToken(hash: rotated.storeTokenHash, sealed: rotated.storeToken, app: rotated.appId, org: org,
                            at: at, tables: tables, on: connection)
        case AppDestinationAdded.eventType:
            let added = try event.decode(AppDestinationAdded.self)
            try connection.query("""
                INSERT INTO \(tables["app_destinations"]) (destination_id, org_id, app_id, scheme, url, sealed_secret,
                    is_default, created_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7::boolean, $8::timestamptz)
                """, [.text(added.destinationId), org, .text(added.appId), .text(added.scheme), .text(added.url),
                      .optional(added.secret?.text), .bool(added.isDefault), at])
        case AppDestinationRemoved.eventType:
            let removed = try event.decode(AppDestinationRemoved.self)
            try connection.query("""
                UPDATE \(tables["app_destinations"]) SET removed_at = $3::timestamptz
                WHERE destination_id = $1::uuid AND org_id = $2::uuid AND removed_at IS NULL
                """, [.text(removed.destinationId), org, at])
        case AppAccountTokenMinted.eventType:
            let minted = try event.decode(AppAccountTokenMinted.self)
            try connection.query("""
                INSERT INTO \(tables["app_account_tokens"]) (org_id, guid, project_id, app_account_token, created_at)
                VALUES ($1::uuid, $2, $3::uuid, $4::uuid, $5::timestamptz)
                """, [org, .text(minted.guid), .text(minted.projectId), .text(minted.appAccountToken), at])
        default:
            return
        }
    }

    private func insertToken(hash: String, sealed: SealedValue, app: String, org: PostgresValue, at: PostgresValue,
                             tables: ProjectionTables, on connection: Connection) throws {
        try connection.query("""
            INSERT INTO \(tables["app_store_tokens"]) (token_hash, org_id, app_id, sealed_token, created_at)
            VALUES ($1, $2::uuid, $3::uuid, $4, $5::timestamptz)
            """, [.text(hash), org, .text(app), .text(sealed.text), at])
    }

    /// `app_apple_id` and the secrets, in the column order of the statements.
    private static func values(_ facts: AppFacts) -> [PostgresValue] {
        [.optional(facts.appAppleId.map(String.init))]
            + [AppSecretKind.revenuecatSecret, .googlePushAudience, .googlePushServiceAccount, .googleServiceAccountKey,
               .metaInstallReferrerKey]
            .map { .optional(facts.secrets[$0]?.text) }
    }
}
