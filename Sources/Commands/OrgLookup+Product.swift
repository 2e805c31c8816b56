import EventStore

extension OrgLookup {
    /// `handoff_code_org(code_hash)` (migration 0015): the org of a handoff code or install token, by its lookup
    /// hash (`CodeMinter.codeHash`).
    static let handoffCode = OrgLookup(function: "handoff_code_org")
    /// `project_org(project_id)` (migration 0015): the org of a project, by its public id.
    static let project = OrgLookup(function: "project_org")
}
