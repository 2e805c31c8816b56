/// The decider of `POST /s2s/v1/apps` and `handoff admin app create`: an app is created only in a project that
/// exists (for S2S, the key's own project).
///
/// The draft is checked before (`AppDraft.parse`); the shell draws the app id, the store token and the forward
/// destination's id, and seals the secrets for the new app.
public enum AppCreation {
    /// The outcome when the app may be created.
    public enum Decision: Sendable, Equatable {
        /// Record `AppCreated` (and `AppDestinationAdded` for a forward URL).
        case create
    }

    /// Decides creating an app in a project that exists or not; a missing one is 404 `NOT_FOUND` about `project`.
    public static func decide(projectExists: Bool) -> Result<Decision, Refusal> {
        projectExists ? .success(.create) : .failure(.notFound("no project has this id", field: "project"))
    }
}
