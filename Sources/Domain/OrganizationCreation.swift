import Foundation

/// The decider of `handoff admin org create --name`: whether the name may name an organization.
///
/// An organization's name follows a project name's rules (1 to `ProjectSettings.maxNameLength` characters, no
/// control characters), so a refusal carries `VALIDATION_PROJECT_NAME_FORMAT` about `--name`. The shell draws the
/// new organization's id.
public enum OrganizationCreation {
    /// Decides creating an organization called `name`; answers the name to record, or the refusal.
    public static func decide(name: String) -> Result<String, Refusal> {
        switch ProjectSettings.new(name: name, nameField: "--name", change: .init()) {
        case .success: .success(name)
        case .failure(let refusal): .failure(Refusal(refusal))
        }
    }
}
