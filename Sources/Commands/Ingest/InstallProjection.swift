import Domain
import EventStore
import Foundation
import Postgres

/// Folds `AppInstallRecorded` into `app_installs` (migration `0030_app_installs.sql`): one row per install of an
/// app, with its tier, the day of its first open and the sources the tier was decided from — the journey keys as the
/// event carries them (sealed since version 2, in clear in version 1); `AppInstallIdentified` moves its tier to
/// `identity`; `AppInstallErased` clears its journey keys (migration 0040), so a replay clears them again.
public struct InstallProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["app_installs"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        if event.eventType == AppInstallTierResolved.eventType {
            return try AppleAdsTierProjection.apply(event, on: connection, table: tables["app_installs"])
        }
        if event.eventType == AppInstallIdentified.eventType {
            let identified = try event.decode(AppInstallIdentified.self)
            try connection.query("""
                UPDATE \(tables["app_installs"]) SET tier = $3 WHERE app_id = $1::uuid AND install_hash = $2
                """, [.text(identified.appId), .text(identified.installHash), .text(identified.tier.rawValue)])
            return
        }
        if event.eventType == AppInstallErased.eventType {
            let erased = try event.decode(AppInstallErased.self)
            // A `utm_content` that is sealed (version 2) or JSON (version 1) is Meta's encrypted referrer.
            try connection.query("""
                UPDATE \(tables["app_installs"]) SET x3c = NULL, gclid = NULL, apple_ads_token = NULL, link = NULL,
                    meta_referrer = NULL,
                    utm_content = CASE WHEN utm_content LIKE 'pd1.%' OR utm_content LIKE '{%' THEN NULL
                                       ELSE utm_content END
                WHERE app_id = $1::uuid AND install_hash = $2
                """, [.text(erased.appId), .text(erased.installHash)])
            return
        }
        guard event.eventType == AppInstallRecorded.eventType else { return }
        let install = try event.decode(AppInstallRecorded.self)
        var sources = install.sources
        if let keys = install.journeyKeys {
            sources.x3c = keys.x3c?.text
            sources.gclid = keys.gclid?.text
            sources.appleAdsToken = keys.appleAdsToken?.text
            sources.link = keys.link?.text
            sources.metaReferrer = keys.metaReferrer?.text
            sources.utmContent = keys.utmContent?.text ?? sources.utmContent
        }
        try connection.query("""
            INSERT INTO \(tables["app_installs"]) (app_id, install_hash, org_id, project_id, tier, installed_at, day,
                sdk, sdk_version, utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, x3c,
                apple_ads_token, link, recorded_at, go_link_id, meta_referrer, wrapper, wrapper_version)
            VALUES ($1::uuid, $2, $3::uuid, $4::uuid, $5, $6::timestamptz,
                ($6::timestamptz AT TIME ZONE 'UTC')::date, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                $18::timestamptz, $19::uuid, $20, $21, $22)
            ON CONFLICT (app_id, install_hash) DO NOTHING
            """, [.text(install.appId), .text(install.installHash), .text(event.orgId.lowercasedText),
                  .text(install.projectId), .text(install.tier.rawValue), .text(install.installedAt),
                  .optional(install.sdk), .optional(install.sdkVersion), .optional(sources.utmSource),
                  .optional(sources.utmMedium), .optional(sources.utmCampaign), .optional(sources.utmTerm),
                  .optional(sources.utmContent), .optional(sources.gclid), .optional(sources.x3c),
                  .optional(sources.appleAdsToken), .optional(sources.link), .text(event.recordedAt),
                  .optional(sources.goLinkId), .optional(sources.metaReferrer), .optional(install.wrapper),
                  .optional(install.wrapperVersion)])
    }
}
