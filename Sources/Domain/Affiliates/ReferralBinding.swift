import Foundation

/// The decider of `POST /v1/app-store/bind`: binds an App Store `appAccountToken` to the referral of a click, first
/// touch first.
///
/// A click that is unknown (nil), of another project, or expired at `now` is refused with the one uniform 404 (its
/// message never says which; `usable`). A token whose referral is still open at `now` keeps it — the same click again
/// (idempotence per token and click) or a later one (first touch wins): nothing is recorded and the answer reports the
/// referral that holds. Otherwise (no referral, or its window ended) the click's referral is recorded, open from
/// `now` (to the millisecond, as the event carries it) for the campaign's window.
public enum ReferralBinding {
    /// What to answer.
    public enum Decision: Hashable, Sendable {
        /// Record `ReferralBound` with this referral and answer it.
        case bind(Referral)
        /// Record nothing; this referral (the token's open one) holds.
        case holds(Referral)

        /// The referral the answer reports.
        public var referral: Referral {
            switch self {
            case .bind(let referral), .holds(let referral): referral
            }
        }
    }

    /// The one 404 of bind: an unknown, expired, tampered or foreign-project click or code, or an unknown project.
    public static let notFound = Refusal.notFound("no referral matches this click or code")

    /// The click to bind, with its campaign's terms, when it may be bound in `project` at `now`: known, of that
    /// project, not expired; else the uniform 404.
    public static func usable(project: ProjectID, click: ClickFacts?, terms: CampaignTerms?, now: Date)
        -> Result<(click: ClickFacts, terms: CampaignTerms), Refusal>
    {
        guard let click, let terms, click.project == project, now < click.expiresAt else { return .failure(notFound) }
        return .success((click, terms))
    }

    /// Decides binding a usable `click` (with its campaign's `terms`) for a token whose current referral is
    /// `existing`.
    public static func decide(click: ClickFacts, terms: CampaignTerms, existing: Referral?, now: Date) -> Decision {
        if let existing, existing.isOpen(at: now) { return .holds(existing) }
        let boundAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        return .bind(Referral(
            affiliateId: click.affiliate, campaignId: click.campaign, clickId: click.click, boundAt: boundAt,
            windowEndsAt: boundAt.addingTimeInterval(terms.window), commission: terms.commission,
            holdDays: terms.holdDays))
    }
}
