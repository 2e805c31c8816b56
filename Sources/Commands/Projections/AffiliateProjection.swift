import Domain
import EventStore
import Foundation
import Postgres

/// Folds affiliate events into `affiliate_campaigns`, `affiliates`, `affiliate_clicks` and `affiliate_referrals`
/// (migration `0020_affiliate_programs.sql`).
///
/// Click and referral times are the events' own (the commands' clock), creation times the event's `recorded_at`, so
/// a replay writes the same rows as the live appends did. A second affiliate with one code in a project fails its
/// insert here (the table's unique key): the racing command runs again and sees the winner. A `ReferralBound`
/// replaces the token's referral row (the command records one only after the row's window ended); one without a
/// guid also keeps its token on the click, once.
public struct AffiliateProjection: InlineProjection {
    public init() {}

    public var tables: [String] { ["affiliate_campaigns", "affiliates", "affiliate_clicks", "affiliate_referrals"] }

    public func apply(_ event: RecordedEvent, on connection: Connection, tables: ProjectionTables) throws {
        let org = PostgresValue.text(event.orgId.lowercasedText)
        let at = PostgresValue.text(event.recordedAt)
        switch event.eventType {
        case CampaignCreated.eventType:
            let facts = try event.decode(CampaignCreated.self).facts
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let commission = String(decoding: try encoder.encode(facts.commission), as: UTF8.self)
            try connection.query("""
                INSERT INTO \(tables["affiliate_campaigns"]) (campaign_id, org_id, project_id, name, commission,
                    window_days, hold_days, offer_code, created_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::jsonb, $6::integer, $7::integer, $8, $9::timestamptz)
                """, [.text(facts.campaignId), org, .text(facts.projectId), .text(facts.name), .text(commission),
                      .text(String(facts.windowDays)), .text(String(facts.holdDays)), .optional(facts.offerCode), at])
        case AffiliateCreated.eventType:
            let created = try event.decode(AffiliateCreated.self)
            try connection.query("""
                INSERT INTO \(tables["affiliates"]) (affiliate_id, org_id, project_id, campaign_id, name, ref_code,
                    created_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5, $6, $7::timestamptz)
                """, [.text(created.affiliateId), org, .text(created.projectId), .text(created.campaignId),
                      .text(created.name), .text(created.refCode), at])
        case AffiliateLinkClicked.eventType:
            let click = try event.decode(AffiliateLinkClicked.self)
            try connection.query("""
                INSERT INTO \(tables["affiliate_clicks"]) (click_id, org_id, project_id, affiliate_id, campaign_id,
                    source, clicked_at, expires_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6, $7::timestamptz, $8::timestamptz)
                """, [.text(click.clickId), org, .text(click.projectId), .text(click.affiliateId),
                      .text(click.campaignId), .text(click.source), .text(click.clickedAt), .text(click.expiresAt)])
        case ReferralBound.eventType:
            let bound = try event.decode(ReferralBound.self)
            try connection.query("""
                INSERT INTO \(tables["affiliate_referrals"]) (org_id, app_account_token, project_id, affiliate_id,
                    campaign_id, click_id, guid, bound_at, window_ends_at)
                VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7, $8::timestamptz,
                    $9::timestamptz)
                ON CONFLICT (org_id, app_account_token) DO UPDATE SET project_id = EXCLUDED.project_id,
                    affiliate_id = EXCLUDED.affiliate_id, campaign_id = EXCLUDED.campaign_id,
                    click_id = EXCLUDED.click_id, guid = EXCLUDED.guid, bound_at = EXCLUDED.bound_at,
                    window_ends_at = EXCLUDED.window_ends_at
                """, [org, .text(bound.appAccountToken), .text(bound.projectId), .text(bound.affiliateId),
                      .text(bound.campaignId), .text(bound.clickId), .optional(bound.guid), .text(bound.boundAt),
                      .text(bound.windowEndsAt)])
            if bound.guid == nil {
                try connection.query("""
                    UPDATE \(tables["affiliate_clicks"]) SET app_account_token = $3::uuid
                    WHERE click_id = $1::uuid AND org_id = $2::uuid AND app_account_token IS NULL
                    """, [.text(bound.clickId), org, .text(bound.appAccountToken)])
            }
        default:
            return
        }
    }
}
