import Foundation

/// The affiliate referral an App Store `appAccountToken` carries (`AffiliateLookup.referral`, the commission
/// ledger's input): who referred the buyer, through which click, and under which campaign terms.
public struct Referral: Hashable, Sendable {
    public var affiliateId: AffiliateID
    public var campaignId: CampaignID
    public var clickId: ClickID
    /// When the token was bound (the bind's clock).
    public var boundAt: Date
    /// `boundAt` + the campaign's window: a transaction earns commission only before this instant, and a new bind
    /// of the token replaces this referral only from this instant on.
    public var windowEndsAt: Date
    /// The campaign's rule.
    public var commission: CommissionRule
    /// Days a credited commission is held before it is payable.
    public var holdDays: Int

    public init(affiliateId: AffiliateID, campaignId: CampaignID, clickId: ClickID, boundAt: Date,
                windowEndsAt: Date, commission: CommissionRule, holdDays: Int) {
        self.affiliateId = affiliateId
        self.campaignId = campaignId
        self.clickId = clickId
        self.boundAt = boundAt
        self.windowEndsAt = windowEndsAt
        self.commission = commission
        self.holdDays = holdDays
    }

    /// Whether the referral's window is open at `instant` (it closes at `windowEndsAt`).
    public func isOpen(at instant: Date) -> Bool { instant < windowEndsAt }
}
