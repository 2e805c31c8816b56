import Domain
import EventStore

/// Whose app a command may touch: over S2S the key's org and project, for the admin CLI any app (its org found by
/// `app_org`).
public struct AppCommandScope: Sendable, Equatable {
    public var app: AppID
    /// The caller's organization; nil for the admin CLI.
    public var org: OrgID?
    /// The key's project: an app of another project of the org is not found. Nil for the admin CLI.
    public var project: ProjectID?

    public init(app: AppID, org: OrgID?, project: ProjectID?) {
        self.app = app
        self.org = org
        self.project = project
    }

    /// The row-level-security scope of the command's transaction.
    var orgScope: OrgScope { org.map { .org($0.uuid) } ?? .orgOf(.app, .text(app.description)) }
}
