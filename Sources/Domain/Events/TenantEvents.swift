import Foundation

/// The stream names of tenancy events; every one lives in its organization's log (org id = the org).
public enum TenantStreams {
    /// The organization's own stream: `OrganizationCreated`.
    public static let organization = "organization"
    /// A project's stream: its creation, settings changes and key events.
    public static func project(_ id: ProjectID) -> String { "project-\(id)" }
}

/// An organization came into being.
public struct OrganizationCreated: EventPayload, Equatable {
    public static let eventType = "OrganizationCreated"
    public static let schemaVersion = 1
    public var orgId: String
    public var name: String

    public init(orgId: OrgID, name: String) {
        self.orgId = orgId.description
        self.name = name
    }
}

/// A project and its complete settings: what `ProjectCreated` and `ProjectSettingsChanged` carry.
public struct ProjectSettingsFacts: Codable, Sendable, Equatable {
    public var projectId: String
    public var settings: ProjectSettings

    public init(projectId: ProjectID, settings: ProjectSettings) {
        self.projectId = projectId.description
        self.settings = settings
    }
}

/// A project was created in an organization with these settings.
public struct ProjectCreated: FlatEventPayload, Equatable {
    public static let eventType = "ProjectCreated"
    public static let schemaVersion = 1
    public var facts: ProjectSettingsFacts
    public init(_ facts: ProjectSettingsFacts) { self.facts = facts }
}

/// A project's settings changed; `settings` is the complete new state (not a diff), so folding is an overwrite.
public struct ProjectSettingsChanged: FlatEventPayload, Equatable {
    public static let eventType = "ProjectSettingsChanged"
    public static let schemaVersion = 1
    public var facts: ProjectSettingsFacts
    public init(_ facts: ProjectSettingsFacts) { self.facts = facts }
}

/// A project's secret key, named by the hex SHA-256 of its text and its visible prefix — never the key itself,
/// which is shown once to whoever created it. What `SecretKeyCreated` and `SecretKeyRevoked` carry.
public struct SecretKeyFacts: Codable, Sendable, Equatable {
    public var projectId: String
    /// Lowercase hex of SHA-256(key text).
    public var keyHash: String
    public var prefix: String

    public init(projectId: ProjectID, keyHash: String, prefix: String) {
        self.projectId = projectId.description
        self.keyHash = keyHash
        self.prefix = prefix
    }
}

/// A secret key was issued for a project.
public struct SecretKeyCreated: FlatEventPayload, Equatable {
    public static let eventType = "SecretKeyCreated"
    public static let schemaVersion = 1
    public var facts: SecretKeyFacts
    public init(_ facts: SecretKeyFacts) { self.facts = facts }
}

/// A secret key was revoked; it authenticates nothing from the commit on.
public struct SecretKeyRevoked: FlatEventPayload, Equatable {
    public static let eventType = "SecretKeyRevoked"
    public static let schemaVersion = 1
    public var facts: SecretKeyFacts
    public init(_ facts: SecretKeyFacts) { self.facts = facts }
}
