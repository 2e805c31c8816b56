import Foundation

/// The streams of install identity facts that are events.
public enum InstallIdentityStreams {
    /// The erasures of one install of an app: its `AppInstallErased` events. Not the install's own stream
    /// (`IngestStreams.install`), which its `AppInstallRecorded` must open, also after an erasure.
    public static func erasure(app: AppID, installHash: String) -> String {
        "app-install-erasure-\(app)-\(installHash)"
    }
}

/// An install was identified by a batch's `id` while attribution was granted, and its tier moved to `identity`
/// (stream `IngestStreams.install`, after its `AppInstallRecorded`). Carries no token: only the install's keyed hash.
public struct AppInstallIdentified: EventPayload, Equatable {
    public static let eventType = "AppInstallIdentified"
    public static let schemaVersion = 1
    public var appId: String
    public var projectId: String
    public var installHash: String
    /// The tier the install had (`organic` or `unknown`).
    public var previousTier: InstallTier
    /// Always `identity`.
    public var tier: InstallTier

    public init(appId: AppID, projectId: ProjectID, installHash: String, previousTier: InstallTier) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.installHash = installHash
        self.previousTier = previousTier
        self.tier = .identity
    }
}

/// An install's data was erased (`POST /v1/m/erase` with a matching proof, or the server-side
/// `POST /v1/projects/{project}/app-users/erase`): its sessions, screen views, events, recordings, account tokens and
/// erase proof were deleted and its personal-data key (`app-install:<hash>`) destroyed, in the transaction that
/// appended this event (recordings just before it). Carries no personal data.
public struct AppInstallErased: EventPayload, Equatable {
    public static let eventType = "AppInstallErased"
    public static let schemaVersion = 1

    /// Who asked.
    public enum Origin: String, Codable, Sendable, Equatable {
        /// The device, proving it holds the install's erase secret.
        case device
        /// The project's server, naming the user.
        case server
    }

    public var erasureId: String
    public var appId: String
    public var projectId: String
    public var installHash: String
    public var origin: Origin

    public init(erasureId: UUID, appId: AppID, projectId: ProjectID, installHash: String, origin: Origin) {
        self.erasureId = erasureId.lowercasedText
        self.appId = appId.description
        self.projectId = projectId.description
        self.installHash = installHash
        self.origin = origin
    }
}
