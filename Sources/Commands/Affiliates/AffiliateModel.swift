import EventStore
import Foundation
import Postgres

/// The affiliate commands and reads (issue 15): programs (campaigns, affiliates), link clicks and bind. They need no
/// secret of their own; clicks and binds are signed with the pass keys, which their callers pass in.
public struct AffiliateModel: Sendable {
    /// Campaigns, affiliates and referrals as tenants and the commission ledger read them.
    public let lookup: AffiliateLookup
    public let createCampaign: CreateCampaign
    public let createAffiliate: CreateAffiliate
    public let recordClick: RecordClick
    public let bindReferral: BindReferral
    /// Affiliates' commission statements (the ledger's read).
    public let statement: CommissionStatement

    /// The affiliate model over `log`.
    public init(log: EventLog) {
        self.lookup = AffiliateLookup(pool: log.pool)
        self.createCampaign = CreateCampaign(log: log)
        self.createAffiliate = CreateAffiliate(log: log)
        self.recordClick = RecordClick(log: log)
        self.bindReferral = BindReferral(log: log)
        self.statement = CommissionStatement(log: log)
    }
}
