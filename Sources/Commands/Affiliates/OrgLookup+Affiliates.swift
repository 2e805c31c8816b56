import EventStore

extension OrgLookup {
    /// `ref_code_org(ref_code)` (migration 0020): the org of the one affiliate in the deployment that holds a
    /// referral code (normal form), or none when no affiliate or several do — a bare `/a/{refCode}`.
    static let refCode = OrgLookup(function: "ref_code_org")
}
