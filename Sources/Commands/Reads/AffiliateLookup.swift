import Domain
import EventStore
import Foundation
import Postgres

/// Reads of the affiliate projections (`affiliate_campaigns`, `affiliates`, `affiliate_clicks`,
/// `affiliate_referrals`, migration 0020): a project's campaigns and affiliates as tenants see them, what a referral
/// code or a click leads to, and the referral a token carries (`referral(org:appAccountToken:on:)`, for the
/// commission ledger).
///
/// Every read takes the org id or runs inside a transaction already in the org's scope (row-level security); the
/// admin CLI, which names a project only, reads under the project's org (`project_org`).
public struct AffiliateLookup: Sendable {
    let pool: Pool

    public init(pool: Pool) { self.pool = pool }

    /// The campaigns of `project` (of `org` when given), oldest first; nil when there is no such project.
    public func campaigns(project: ProjectID, org: OrgID?) throws -> [Campaign]? {
        try pool.transaction(opening: Self.scope(project: project, org: org).statement) { connection in
            guard try ProjectLookup.project(project, org: org, on: connection, forUpdate: false) != nil else {
                return nil
            }
            return try Self.campaigns(where: "c.project_id = $1::uuid", [.text(project.description)], on: connection)
        }
    }

    /// The affiliates of `project` (of `org` when given), oldest first, without their links (`Affiliate.linked`);
    /// nil when there is no such project.
    public func affiliates(project: ProjectID, org: OrgID?) throws -> [Affiliate]? {
        try pool.transaction(opening: Self.scope(project: project, org: org).statement) { connection in
            guard try ProjectLookup.project(project, org: org, on: connection, forUpdate: false) != nil else {
                return nil
            }
            return try Self.affiliates(where: "a.project_id = $1::uuid", [.text(project.description)],
                                       on: connection)
        }
    }

    /// The referral `appAccountToken` carries in `org`, whatever its window (the caller judges a transaction's date
    /// against `windowEndsAt`), or nil. On `connection`, inside a transaction in the org's scope: the commission
    /// ledger calls it in `ReceiveStoreNotification`'s transaction.
    public static func referral(org: UUID, appAccountToken: UUID, on connection: Connection) throws -> Referral? {
        try heldReferral(org: org, token: appAccountToken, on: connection)?.referral
    }

    /// The row scope of a read of `project`: the caller's org, or the project's.
    static func scope(project: ProjectID, org: OrgID?) -> OrgScope {
        org.map { .org($0.uuid) } ?? .orgOf(.project, .text(project.description))
    }

    /// The referral of `token` with its campaign's offer code.
    static func heldReferral(org: UUID, token: UUID, on connection: Connection) throws
        -> (referral: Referral, offerCode: String?)?
    {
        guard let row = try connection.queryPrepared("""
            SELECT r.affiliate_id::text AS affiliate_id, r.campaign_id::text AS campaign_id,
                r.click_id::text AS click_id, \(instant("r.bound_at")) AS bound_at,
                \(instant("r.window_ends_at")) AS window_ends_at, c.commission::text AS commission, c.hold_days,
                c.offer_code
            FROM affiliate_referrals r JOIN affiliate_campaigns c ON c.campaign_id = r.campaign_id
            WHERE r.org_id = $1::uuid AND r.app_account_token = $2::uuid
            """, [.text(org.lowercasedText), .text(token.lowercasedText)]).rows.first
        else { return nil }
        guard let affiliate = UUID(canonicalText: try row.string("affiliate_id")),
              let campaign = UUID(canonicalText: try row.string("campaign_id")),
              let click = UUID(canonicalText: try row.string("click_id")),
              let boundAt = RFC3339.parse(try row.string("bound_at")),
              let windowEndsAt = RFC3339.parse(try row.string("window_ends_at"))
        else { throw InconsistentState("a stored referral does not read back") }
        let referral = Referral(
            affiliateId: AffiliateID(affiliate), campaignId: CampaignID(campaign), clickId: ClickID(click),
            boundAt: boundAt, windowEndsAt: windowEndsAt, commission: try commission(row.string("commission")),
            holdDays: try row.int("hold_days"))
        return (referral, row["offer_code"])
    }

    /// What the referral code `code` leads to in `project` — or, without a project, in the one project that holds
    /// the code (the transaction's scope is that project's org, `ref_code_org`) — and where the project's affiliate
    /// links lead; nil when no affiliate (or more than one) has it.
    static func target(of code: RefCode, project: ProjectID?, on connection: Connection) throws
        -> (target: ClickTarget, org: OrgID, landing: String?)?
    {
        let rows = try connection.queryPrepared("""
            SELECT a.org_id::text AS org_id, a.project_id::text AS project_id, a.affiliate_id::text AS affiliate_id,
                a.campaign_id::text AS campaign_id, \(termColumns),
                coalesce(p.landing_url, p.paywall_url) AS landing
            FROM affiliates a JOIN affiliate_campaigns c ON c.campaign_id = a.campaign_id
                JOIN projects p ON p.project_id = a.project_id
            WHERE a.ref_code = $1 AND ($2::uuid IS NULL OR a.project_id = $2::uuid)
            LIMIT 2
            """, [.text(code.text), .optional(project?.description)]).rows
        guard rows.count == 1, let row = rows.first else { return nil }
        guard case .success(let org) = OrgID.parse(try row.string("org_id")),
              case .success(let projectId) = ProjectID.parse(try row.string("project_id")),
              case .success(let affiliate) = AffiliateID.parse(try row.string("affiliate_id")),
              case .success(let campaign) = CampaignID.parse(try row.string("campaign_id"))
        else { throw InconsistentState("a stored affiliate does not read back") }
        return (ClickTarget(project: projectId, affiliate: affiliate, campaign: campaign, terms: try terms(row)),
                org, row["landing"])
    }

    /// A recorded click with its campaign's terms and the token minted for it (if any), locked when `forUpdate`
    /// (binds of one click wait for each other); nil when the org has no such click.
    static func click(_ id: ClickID, on connection: Connection, forUpdate: Bool) throws
        -> (click: ClickFacts, terms: CampaignTerms, token: UUID?)?
    {
        guard let row = try connection.query("""
            SELECT k.project_id::text AS project_id, k.affiliate_id::text AS affiliate_id,
                k.campaign_id::text AS campaign_id, k.source, \(instant("k.clicked_at")) AS clicked_at,
                \(instant("k.expires_at")) AS expires_at, k.app_account_token::text AS token, \(termColumns)
            FROM affiliate_clicks k JOIN affiliate_campaigns c ON c.campaign_id = k.campaign_id
            WHERE k.click_id = $1::uuid
            \(forUpdate ? "FOR UPDATE OF k" : "")
            """, [.text(id.description)]).rows.first else { return nil }
        guard case .success(let project) = ProjectID.parse(try row.string("project_id")),
              case .success(let affiliate) = AffiliateID.parse(try row.string("affiliate_id")),
              case .success(let campaign) = CampaignID.parse(try row.string("campaign_id")),
              let source = ClickSource(rawValue: try row.string("source")),
              let clickedAt = RFC3339.parse(try row.string("clicked_at")),
              let expiresAt = RFC3339.parse(try row.string("expires_at"))
        else { throw InconsistentState("a stored click does not read back") }
        let token = try row["token"].map { text in
            guard let token = UUID(canonicalText: text) else {
                throw InconsistentState("a click's token does not read")
            }
            return token
        }
        let click = ClickFacts(click: id, project: project, affiliate: affiliate, campaign: campaign, source: source,
                               clickedAt: clickedAt, expiresAt: expiresAt)
        return (click, try terms(row), token)
    }

    /// Whether an affiliate of `project` holds `code`.
    static func refCodeTaken(_ code: RefCode, project: ProjectID, on connection: Connection) throws -> Bool {
        try !connection.query("SELECT 1 FROM affiliates WHERE project_id = $1::uuid AND ref_code = $2",
                              [.text(project.description), .text(code.text)]).rows.isEmpty
    }

    /// `to_char` of a timestamp as the API writes instants (`yyyy-MM-ddTHH:mm:ss.SSSZ`, UTC).
    static func instant(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    }

    /// The campaign columns (`affiliate_campaigns c`) `terms(_:)` reads.
    static let termColumns = "c.name AS campaign_name, c.commission::text AS commission, c.window_days, c.hold_days, "
        + "c.offer_code"

    static func terms(_ row: Row) throws -> CampaignTerms {
        CampaignTerms(name: try row.string("campaign_name"), commission: try commission(row.string("commission")),
                      windowDays: try row.int("window_days"), holdDays: try row.int("hold_days"),
                      offerCode: row["offer_code"])
    }

    static func commission(_ json: String) throws -> CommissionRule {
        do {
            return try JSONDecoder().decode(CommissionRule.self, from: Data(json.utf8))
        } catch {
            throw InconsistentState("a stored commission rule does not read back")
        }
    }
}
