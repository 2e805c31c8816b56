import Foundation

/// The decider of `handoff admin key revoke --prefix`: revoke every live key of the project with that prefix.
///
/// The shell reads the hashes of the project's live keys with the prefix (under a row lock), in the order it wants
/// the `SecretKeyRevoked` events. A prefix with no live key (unknown, or all already revoked) is a refusal, so a typo
/// never looks like a revocation.
public enum KeyRevocation {
    /// Decides revoking the live keys `liveKeyHashes`; answers the hashes to revoke, in the given order, or 404
    /// `NOT_FOUND` about `prefix` when there is none.
    public static func decide(liveKeyHashes: [String]) -> Result<[String], Refusal> {
        liveKeyHashes.isEmpty
            ? .failure(.notFound("the project has no live key with this prefix", field: "prefix"))
            : .success(liveKeyHashes)
    }
}
