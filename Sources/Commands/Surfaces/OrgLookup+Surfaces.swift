import EventStore

extension OrgLookup {
    /// `surface_org(surface_id)` (migration 0021): the org of a surface, by its id (the forwarding URL, `handoff admin
    /// surface …`).
    static let surface = OrgLookup(function: "surface_org")
}
