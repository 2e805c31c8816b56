import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates an affiliate in a project (`POST /s2s/v1/affiliates`, `handoff admin affiliate create`):
/// `AffiliateCreated` under a campaign of the same project, with the given referral code or one minted here
/// (`AffiliateCreation.decide`).
///
/// Two creations with one code at once: the loser's insert fails on the table's unique key, `EventLog.transact` runs
/// it again and it answers 409.
public struct CreateAffiliate: Sendable {
    /// How the caller names the campaign and the code (JSON keys or CLI flags), for refusals.
    public struct FieldNames: Sendable {
        public var campaign: String
        public var refCode: String

        public static let json = FieldNames(campaign: "campaignId", refCode: "refCode")
        public static let flags = FieldNames(campaign: "--campaign", refCode: "--ref-code")
    }

    private let log: EventLog

    init(log: EventLog) { self.log = log }

    /// Records the affiliate `draft` in `project` (of `org` when given); returns it as read back (without its
    /// link). Refuses 404 for a project or a campaign the caller does not have, 409 `REF_CODE_TAKEN` for a code
    /// another affiliate of the project holds.
    public func run(project: ProjectID, org: OrgID?, draft: AffiliateDraft, fields: FieldNames = .json,
                    metadata: EventMetadata) throws -> AffiliateLookup.Affiliate
    {
        let affiliate = AffiliateID(randomBytes: SecureRandom.bytes(16))
        // A code to mint: 8 characters (40 bits); up to three more in case one is taken, which is as good as never.
        let minted = draft.refCode == nil ? (0..<4).map { _ in RefCode(randomBytes: SecureRandom.bytes(5)) } : []
        return try log.transact(in: AffiliateLookup.scope(project: project, org: org)) { transaction in
            let connection = transaction.connection
            let current = try ProjectLookup.project(project, org: org, on: connection, forUpdate: false)
            let campaignFound = try !connection.query("""
                SELECT 1 FROM affiliate_campaigns WHERE campaign_id = $1::uuid AND project_id = $2::uuid
                """, [.text(draft.campaign.description), .text(project.description)]).rows.isEmpty
            var code = draft.refCode ?? minted[0]
            for candidate in minted where !(try AffiliateLookup.refCodeTaken(candidate, project: project,
                                                                             on: connection)) {
                code = candidate
                break
            }
            let taken = try AffiliateLookup.refCodeTaken(code, project: project, on: connection)
            try AffiliateCreation.decide(
                AffiliateCreation.Facts(projectExists: current != nil, campaignInProject: campaignFound,
                                        refCodeTaken: taken),
                campaignField: fields.campaign, refCodeField: fields.refCode).get()
            guard let orgId = current?.orgId else { throw InconsistentState("a decided project has no org") }
            try transaction.append(
                org: orgId.uuid, stream: AffiliateStreams.affiliate(affiliate), expectedVersion: .noStream,
                events: [try NewEvent(AffiliateCreated(affiliateId: affiliate, projectId: project,
                                                       campaignId: draft.campaign, name: draft.name, refCode: code))],
                metadata: metadata)
            guard let created = try AffiliateLookup.affiliates(
                where: "a.affiliate_id = $1::uuid", [.text(affiliate.description)], on: connection).first
            else { throw InconsistentState("a created affiliate does not read back") }
            return created
        }
    }
}
