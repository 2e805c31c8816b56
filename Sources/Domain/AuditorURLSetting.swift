import Foundation

/// The decider of `handoff admin org set-auditor-url`: an organization that exists names (or clears) the URL its new
/// signed chain heads are delivered to; setting what is already set records nothing.
///
/// The URL's syntax is checked before (`AppForwardURL.validate`), its address by the shell
/// (`FORWARD_ALLOWED_NETWORKS`).
public enum AuditorURLSetting {
    /// Decides changing `current` to `requested` (nil: clear) in an organization that exists or not: the event to
    /// record, or nil when nothing changes; a missing organization is 404 `NOT_FOUND` about `org`.
    public static func decide(organizationExists: Bool, current: String?, requested: AppForwardURL?)
        -> Result<AuditorURLSet?, Refusal>
    {
        guard organizationExists else { return .failure(.notFound("no organization has this id", field: "org")) }
        guard current != requested?.text else { return .success(nil) }
        return .success(AuditorURLSet(url: requested?.text))
    }
}
