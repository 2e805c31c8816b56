/// An app got a new publishable key (`pk_3x_…`): at its creation, or by a rotation, which makes the previous key
/// unknown from the commit on. The key is public by design, so the event carries it in clear.
public struct AppPublishableKeyIssued: EventPayload, Equatable {
    public static let eventType = "AppPublishableKeyIssued"
    public static let schemaVersion = 1
    public var appId: String
    public var projectId: String
    public var publishableKey: String

    public init(appId: AppID, projectId: ProjectID, key: PublishableKey) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.publishableKey = key.text
    }
}

/// An app's AppConfig settings changed; `settings` is the complete new state (folding is an overwrite).
public struct AppIngestSettingsChanged: EventPayload, Equatable {
    public static let eventType = "AppIngestSettingsChanged"
    public static let schemaVersion = 1
    public var appId: String
    public var projectId: String
    public var settings: IngestSettings

    public init(appId: AppID, projectId: ProjectID, settings: IngestSettings) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.settings = settings
    }
}
