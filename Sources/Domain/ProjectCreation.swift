import Foundation

/// The decider of `handoff admin project create`: a project is created only in an organization that exists.
///
/// The settings are validated before (`ProjectSettings.new`); the shell draws the project id and its first key.
public enum ProjectCreation {
    /// The outcome when the project may be created.
    public enum Decision: Sendable, Equatable {
        /// Record the project and its first secret key.
        case create
    }

    /// Decides creating a project in an organization that exists or not; a missing one is 404 `NOT_FOUND` about
    /// `org`.
    public static func decide(organizationExists: Bool) -> Result<Decision, Refusal> {
        organizationExists ? .success(.create) : .failure(.notFound("no organization has this id", field: "org"))
    }
}
