import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates a campaign in a project (`POST /s2s/v1/campaigns`, `handoff admin affiliate campaign create`):
/// `CampaignCreated` (`CampaignCreation.decide`).
public struct CreateCampaign: Sendable {
    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Records a campaign with `terms` in `project` (of `org` when given; the admin CLI finds the org from the
    /// project); returns it as read back. Refuses 404 for a project that does not exist (in the caller's org).
    public func run(project: ProjectID, org: OrgID?, terms: CampaignTerms, metadata: EventMetadata) throws
        -> AffiliateLookup.Campaign
    {
        let campaign = CampaignID(randomBytes: SecureRandom.bytes(16))
        return try log.transact(in: AffiliateLookup.scope(project: project, org: org)) { transaction in
            let connection = transaction.connection
            let current = try ProjectLookup.project(project, org: org, on: connection, forUpdate: false)
            try CampaignCreation.decide(projectExists: current != nil).get()
            guard let orgId = current?.orgId else { throw InconsistentState("a decided project has no org") }
            try transaction.append(
                org: orgId.uuid, stream: AffiliateStreams.campaign(campaign), expectedVersion: .noStream,
                events: [try NewEvent(CampaignCreated(CampaignFacts(campaignId: campaign, projectId: project,
                                                                    terms: terms)))],
                metadata: metadata)
            guard let created = try AffiliateLookup.campaigns(
                where: "c.campaign_id = $1::uuid", [.text(campaign.description)], on: connection).first
            else { throw InconsistentState("a created campaign does not read back") }
            return created
        }
    }
}
