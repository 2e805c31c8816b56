/// What a referral code or a click leads to: the affiliate, its project, and the campaign it earns under with its
/// terms.
public struct ClickTarget: Hashable, Sendable {
    public var project: ProjectID
    public var affiliate: AffiliateID
    public var campaign: CampaignID
    public var terms: CampaignTerms

    public init(project: ProjectID, affiliate: AffiliateID, campaign: CampaignID, terms: CampaignTerms) {
        self.project = project
        self.affiliate = affiliate
        self.campaign = campaign
        self.terms = terms
    }
}
