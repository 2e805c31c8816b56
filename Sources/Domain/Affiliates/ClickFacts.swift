import Foundation

/// One click as recorded (`AffiliateLinkClicked`, a row of `affiliate_clicks`): whose, how, when, and until when it
/// may be bound.
public struct ClickFacts: Hashable, Sendable {
    public var click: ClickID
    public var project: ProjectID
    public var affiliate: AffiliateID
    public var campaign: CampaignID
    public var source: ClickSource
    /// The command's clock when the click was recorded.
    public var clickedAt: Date
    /// `clickedAt` + the campaign's window, in whole seconds (as the signed click id carries it): from this instant
    /// on the click binds nothing.
    public var expiresAt: Date

    public init(click: ClickID, project: ProjectID, affiliate: AffiliateID, campaign: CampaignID,
                source: ClickSource, clickedAt: Date, expiresAt: Date) {
        self.click = click
        self.project = project
        self.affiliate = affiliate
        self.campaign = campaign
        self.source = source
        self.clickedAt = clickedAt
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// A new click of `target` at `now` by `source`: it expires after the campaign's window.
    public static func new(_ click: ClickID, target: ClickTarget, source: ClickSource, now: Date) -> ClickFacts {
        ClickFacts(click: click, project: target.project, affiliate: target.affiliate, campaign: target.campaign,
                   source: source, clickedAt: now, expiresAt: now.addingTimeInterval(target.terms.window))
    }
}
