import EventStore

extension OrgLookup {
    /// `go_link_org(token)` (migration 0032): the org of a go link, by its global token (`GET /v1/go/{ref}`).
    static let goLink = OrgLookup(function: "go_link_org")
}
