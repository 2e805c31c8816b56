import EventStore

extension OrgLookup {
    /// `app_org(app_id)` (migration 0017): the org of an app, by its id (`handoff admin app …`).
    static let app = OrgLookup(function: "app_org")
}
