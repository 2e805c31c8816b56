import EventStore

extension OrgLookup {
    /// `app_org(app_id)` (migration 0017): the org of an app, by its id (`handoff admin app …`).
    static let app = OrgLookup(function: "app_org")
}

extension OrgLookup {
    /// `affiliate_org(affiliate_id)` (migration 0022): the org of an affiliate, by its id (`handoff admin affiliate
    /// statement`).
    static let affiliate = OrgLookup(function: "affiliate_org")
}
