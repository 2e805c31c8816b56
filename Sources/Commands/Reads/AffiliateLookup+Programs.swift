import Domain
import Foundation
import Postgres

extension AffiliateLookup {
    /// A campaign as its tenant reads it (`POST`/`GET /s2s/v1/campaigns`, `handoff admin affiliate campaign …`):
    /// `{"campaignId","projectId","name","commission","windowDays","holdDays","offerCode","createdAt"}`, every key
    /// written (`offerCode` null when unset).
    public struct Campaign: Sendable, Equatable, Encodable {
        public var campaignId: CampaignID
        public var projectId: ProjectID
        public var terms: CampaignTerms
        /// When it was recorded, `yyyy-MM-ddTHH:mm:ss.SSSZ`.
        public var createdAt: String

        private enum CodingKeys: String, CodingKey {
            case campaignId, projectId, name, commission, windowDays, holdDays, offerCode, createdAt
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(campaignId.description, forKey: .campaignId)
            try container.encode(projectId.description, forKey: .projectId)
            try container.encode(terms.name, forKey: .name)
            try container.encode(terms.commission, forKey: .commission)
            try container.encode(terms.windowDays, forKey: .windowDays)
            try container.encode(terms.holdDays, forKey: .holdDays)
            try container.encode(terms.offerCode, forKey: .offerCode)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// An affiliate as its tenant reads it (`POST`/`GET /s2s/v1/affiliates`, `handoff admin affiliate …`):
    /// `{"affiliateId","projectId","campaignId","name","refCode","link","createdAt"}`.
    public struct Affiliate: Sendable, Equatable, Encodable {
        public var affiliateId: AffiliateID
        public var projectId: ProjectID
        public var campaignId: CampaignID
        public var name: String
        public var refCode: RefCode
        /// When it was recorded, `yyyy-MM-ddTHH:mm:ss.SSSZ`.
        public var createdAt: String
        /// The link to share (`AffiliateLinks.link`), once `linked(base:)` set it; null before.
        public var link: String?

        /// This affiliate with its link on `base` (`PUBLIC_BASE_URL`).
        public func linked(base: String) -> Affiliate {
            var copy = self
            copy.link = AffiliateLinks.link(base: base, refCode: refCode, project: projectId)
            return copy
        }

        private enum CodingKeys: String, CodingKey {
            case affiliateId, projectId, campaignId, name, refCode, link, createdAt
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(affiliateId.description, forKey: .affiliateId)
            try container.encode(projectId.description, forKey: .projectId)
            try container.encode(campaignId.description, forKey: .campaignId)
            try container.encode(name, forKey: .name)
            try container.encode(refCode.text, forKey: .refCode)
            try container.encode(link, forKey: .link)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }

    /// The campaigns (`affiliate_campaigns c`) matching `condition`, oldest first.
    static func campaigns(where condition: String, _ parameters: [PostgresValue], on connection: Connection) throws
        -> [Campaign]
    {
        try connection.query("""
            SELECT c.campaign_id::text AS campaign_id, c.project_id::text AS project_id, \(termColumns),
                \(instant("c.created_at")) AS created_at
            FROM affiliate_campaigns c WHERE \(condition) ORDER BY c.created_at, c.campaign_id
            """, parameters).rows.map { row in
            guard case .success(let campaign) = CampaignID.parse(try row.string("campaign_id")),
                  case .success(let project) = ProjectID.parse(try row.string("project_id"))
            else { throw InconsistentState("a stored campaign does not read back") }
            return Campaign(campaignId: campaign, projectId: project, terms: try terms(row),
                            createdAt: try row.string("created_at"))
        }
    }

    /// The affiliates (`affiliates a`) matching `condition`, oldest first.
    static func affiliates(where condition: String, _ parameters: [PostgresValue], on connection: Connection)
        throws -> [Affiliate]
    {
        try connection.query("""
            SELECT a.affiliate_id::text AS affiliate_id, a.project_id::text AS project_id,
                a.campaign_id::text AS campaign_id, a.name, a.ref_code, \(instant("a.created_at")) AS created_at
            FROM affiliates a WHERE \(condition) ORDER BY a.created_at, a.affiliate_id
            """, parameters).rows.map { row in
            guard case .success(let affiliate) = AffiliateID.parse(try row.string("affiliate_id")),
                  case .success(let project) = ProjectID.parse(try row.string("project_id")),
                  case .success(let campaign) = CampaignID.parse(try row.string("campaign_id")),
                  let code = RefCode(stored: try row.string("ref_code"))
            else { throw InconsistentState("a stored affiliate does not read back") }
            return Affiliate(affiliateId: affiliate, projectId: project, campaignId: campaign,
                             name: try row.string("name"), refCode: code, createdAt: try row.string("created_at"))
        }
    }
}
