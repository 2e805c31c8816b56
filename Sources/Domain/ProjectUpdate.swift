import Foundation

/// The decider of `PATCH /s2s/v1/project` and `handoff admin project update`: apply a settings change.
///
/// The shell reads the project (of the caller's organization, under a row lock) and records
/// `ProjectSettingsChanged` only for `changed`; an unchanged answer records nothing.
public enum ProjectUpdate {
    /// The settings after the change.
    public enum Decision: Sendable, Equatable {
        /// The change leaves the settings as they are: record nothing, answer these.
        case unchanged(ProjectSettings)
        /// The settings differ: record and answer these.
        case changed(ProjectSettings)
    }

    /// Decides applying `change` to `current` (nil = no such project, 404 `NOT_FOUND` about `project`); a refused
    /// value is 400 with its field's code, naming the field as the caller spelled it.
    public static func decide(current: ProjectSettings?, change: ProjectSettingsChange) -> Result<Decision, Refusal> {
        guard let current else { return .failure(.notFound("no project has this id", field: "project")) }
        switch current.applying(change) {
        case .failure(let refusal): return .failure(Refusal(refusal))
        case .success(let next): return .success(next == current ? .unchanged(current) : .changed(next))
        }
    }
}
