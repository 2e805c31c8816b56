import Foundation

/// The decider of `handoff admin key create`: another secret key is issued only for a project that exists.
///
/// The shell draws the key; it is shown once and only its hash is kept.
public enum KeyCreation {
    /// The outcome when the key may be issued.
    public enum Decision: Sendable, Equatable {
        /// Record `SecretKeyCreated` for a new key.
        case create
    }

    /// Decides issuing a key for a project that exists or not; a missing one is 404 `NOT_FOUND` about `project`.
    public static func decide(projectExists: Bool) -> Result<Decision, Refusal> {
        projectExists ? .success(.create) : .failure(.notFound("no project has this id", field: "project"))
    }
}
