import Foundation

/// The stream names of affiliate events; every one lives in its project's organization's log.
public enum AffiliateStreams {
    /// A campaign's stream: its creation.
    public static func campaign(_ id: CampaignID) -> String { "campaign-\(id)" }
    /// An affiliate's stream: its creation.
    public static func affiliate(_ id: AffiliateID) -> String { "affiliate-\(id)" }
    /// One click's stream: `AffiliateLinkClicked`, once.
    public static func click(_ id: ClickID) -> String { "affiliate-click-\(id)" }
    /// The referrals of one App Store `appAccountToken`, in order: each `ReferralBound` replaced the one before
    /// (after its window ended). Appends name the version they read, so two binds at once cannot both be first.
    public static func referral(_ token: UUID) -> String { "referral-\(CanonicalUUID.text(token))" }
}

/// A campaign and its rules: what `CampaignCreated` carries. Every key is written, `offerCode` as null when unset.
public struct CampaignFacts: Codable, Sendable, Equatable {
    public var campaignId: String
    public var projectId: String
    public var name: String
    public var commission: CommissionRule
    public var windowDays: Int
    public var holdDays: Int
    public var offerCode: String?

    public init(campaignId: CampaignID, projectId: ProjectID, terms draft: CampaignTerms) {
        self.campaignId = campaignId.description
        self.projectId = projectId.description
        self.name = draft.name
        self.commission = draft.commission
        self.windowDays = draft.windowDays
        self.holdDays = draft.holdDays
        self.offerCode = draft.offerCode
    }

    private enum CodingKeys: String, CodingKey {
        case campaignId, projectId, name, commission, windowDays, holdDays, offerCode
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(campaignId, forKey: .campaignId)
        try container.encode(projectId, forKey: .projectId)
        try container.encode(name, forKey: .name)
        try container.encode(commission, forKey: .commission)
        try container.encode(windowDays, forKey: .windowDays)
        try container.encode(holdDays, forKey: .holdDays)
        try container.encode(offerCode, forKey: .offerCode)
    }
}

/// A campaign was created in a project.
public struct CampaignCreated: FlatEventPayload, Equatable {
    public static let eventType = "CampaignCreated"
    public static let schemaVersion = 1
    public var facts: CampaignFacts
    public init(_ facts: CampaignFacts) { self.facts = facts }
}

/// An affiliate was created in a project, earning under one campaign of that project, with its referral code (in
/// normal form: upper-case, no white space).
public struct AffiliateCreated: EventPayload, Equatable {
    public static let eventType = "AffiliateCreated"
    public static let schemaVersion = 1
    public var affiliateId: String
    public var projectId: String
    public var campaignId: String
    public var name: String
    public var refCode: String

    public init(affiliateId: AffiliateID, projectId: ProjectID, campaignId: CampaignID, name: String,
                refCode: RefCode) {
        self.affiliateId = affiliateId.description
        self.projectId = projectId.description
        self.campaignId = campaignId.description
        self.name = name
        self.refCode = refCode.text
    }
}

/// Someone followed an affiliate's link (`source` `link`: `GET /a/{refCode}`) or an app bound a referral by the
/// affiliate's code (`code`: `POST /v1/app-store/bind` with `refCode`). No IP address or user agent is kept.
/// `expiresAt` = `clickedAt` + the campaign's window: the signed click id stops binding then.
public struct AffiliateLinkClicked: EventPayload, Equatable {
    public static let eventType = "AffiliateLinkClicked"
    public static let schemaVersion = 1
    public var clickId: String
    public var projectId: String
    public var affiliateId: String
    public var campaignId: String
    /// `link` or `code`.
    public var source: String
    /// RFC 3339 in UTC with milliseconds, from the command's clock.
    public var clickedAt: String
    public var expiresAt: String

    public init(_ click: ClickFacts) {
        self.clickId = click.click.description
        self.projectId = click.project.description
        self.affiliateId = click.affiliate.description
        self.campaignId = click.campaign.description
        self.source = click.source.rawValue
        self.clickedAt = PaymentFields.text(click.clickedAt)
        self.expiresAt = PaymentFields.text(click.expiresAt)
    }
}

/// An App Store `appAccountToken` was bound to an affiliate's referral through a click: transactions carrying the
/// token earn the affiliate commission under the campaign's rule while `windowEndsAt` has not passed (the ledger's
/// rule). `guid` is the buyer whose token it is, or null when the token was minted for this click alone (kept on
/// the click, so a retried bind answers it again). A later `ReferralBound` for the same token replaces this one;
/// the command records one only after this one's window ended (first touch wins).
public struct ReferralBound: EventPayload, Equatable {
    public static let eventType = "ReferralBound"
    public static let schemaVersion = 1
    public var appAccountToken: String
    public var projectId: String
    public var affiliateId: String
    public var campaignId: String
    public var clickId: String
    public var guid: String?
    /// RFC 3339 in UTC with milliseconds, from the command's clock.
    public var boundAt: String
    /// `boundAt` + the campaign's window.
    public var windowEndsAt: String

    public init(token: UUID, project: ProjectID, referral: Referral, guid: BuyerGuid?) {
        self.appAccountToken = CanonicalUUID.text(token)
        self.projectId = project.description
        self.affiliateId = referral.affiliateId.description
        self.campaignId = referral.campaignId.description
        self.clickId = referral.clickId.description
        self.guid = guid?.text
        self.boundAt = PaymentFields.text(referral.boundAt)
        self.windowEndsAt = PaymentFields.text(referral.windowEndsAt)
    }

    private enum CodingKeys: String, CodingKey {
        case appAccountToken, projectId, affiliateId, campaignId, clickId, guid, boundAt, windowEndsAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appAccountToken, forKey: .appAccountToken)
        try container.encode(projectId, forKey: .projectId)
        try container.encode(affiliateId, forKey: .affiliateId)
        try container.encode(campaignId, forKey: .campaignId)
        try container.encode(clickId, forKey: .clickId)
        try container.encode(guid, forKey: .guid)
        try container.encode(boundAt, forKey: .boundAt)
        try container.encode(windowEndsAt, forKey: .windowEndsAt)
    }
}
