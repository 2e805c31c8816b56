import Domain
import EventStore
import Foundation

/// Changes a project's settings (`PATCH /s2s/v1/project`, `handoff admin project update`): one
/// `ProjectSettingsChanged` when something changed (`ProjectUpdate.decide`), nothing otherwise.
public struct UpdateProject: Sendable {
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Applies `change` to project `project` (of `org` when given); returns the project as it now is. Refuses 404
    /// for a project that does not exist (in `org`), 400 naming the field for a setting that is not valid.
    public func run(_ project: ProjectID, org: OrgID?, change: ProjectSettingsChange, metadata: EventMetadata) throws
        -> ProjectLookup.Project
    {
        let scope: OrgScope = org.map { .org($0.uuid) } ?? .orgOf(.project, .text(project.description))
        return try log.transact(in: scope) { transaction in
            let current = try ProjectLookup.project(project, org: org, on: transaction.connection, forUpdate: true)
            let decision = try ProjectUpdate.decide(current: current?.settings, change: change).get()
            guard let orgId = current?.orgId else { throw InconsistentState("a decided project has no org") }
            switch decision {
            case .unchanged(let settings):
                return ProjectLookup.Project(projectId: project, orgId: orgId, settings: settings)
            case .changed(let settings):
                let changed = ProjectSettingsChanged(ProjectSettingsFacts(projectId: project, settings: settings))
                try transaction.append(
                    org: orgId.uuid, stream: TenantStreams.project(project), expectedVersion: .any,
                    events: [try NewEvent(changed)], metadata: metadata)
                return ProjectLookup.Project(projectId: project, orgId: orgId, settings: settings)
            }
        }
    }
}
