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

/// The streams of app ingest facts that are events.
public enum IngestStreams {
    /// One install of an app (`installHash` = the keyed hash of `inst`): its `AppInstallRecorded`, once.
    public static func install(app: AppID, installHash: String) -> String { "app-install-\(app)-\(installHash)" }
}

/// An app install was recorded (`POST /v1/m/install`, once per install) with its tier and the sources it was decided
/// from. The install id is only its keyed hash; sources are present only when attribution consent was granted.
public struct AppInstallRecorded: EventPayload, Equatable {
    public static let eventType = "AppInstallRecorded"
    public static let schemaVersion = 1

    /// What the install's sources said (all nil without attribution consent).
    public struct Sources: Codable, Sendable, Equatable {
        public var utmSource: String?
        public var utmMedium: String?
        public var utmCampaign: String?
        public var utmTerm: String?
        public var utmContent: String?
        public var gclid: String?
        /// Handoff's click token from the Play referrer, raw (known or not; `goLinkId` says whether it was).
        public var x3c: String?
        /// The AdServices token awaiting resolution (tier `pending`).
        public var appleAdsToken: String?
        /// The deep link of the first open, as sent.
        public var link: String?
        /// The go link of the click `x3c` names, when that click is known in the install's project (issue 21);
        /// absent in installs recorded before.
        public var goLinkId: String?
        /// The campaign of a Meta Install Referrer (`utmContent`), decrypted with the app's key: Meta's JSON,
        /// compact with sorted keys.
        public var metaReferrer: String?

        public init(utmSource: String? = nil, utmMedium: String? = nil, utmCampaign: String? = nil,
                    utmTerm: String? = nil, utmContent: String? = nil, gclid: String? = nil, x3c: String? = nil,
                    appleAdsToken: String? = nil, link: String? = nil, goLinkId: String? = nil) {
            self.utmSource = utmSource
            self.utmMedium = utmMedium
            self.utmCampaign = utmCampaign
            self.utmTerm = utmTerm
            self.utmContent = utmContent
            self.gclid = gclid
            self.x3c = x3c
            self.appleAdsToken = appleAdsToken
            self.link = link
            self.goLinkId = goLinkId
        }
    }

    public var appId: String
    public var projectId: String
    public var installHash: String
    public var tier: InstallTier
    /// The first open, device time corrected by the server clock, ISO 8601 UTC.
    public var installedAt: String
    public var sdk: String?
    public var sdkVersion: String?
    public var sources: Sources

    public init(appId: AppID, projectId: ProjectID, installHash: String, tier: InstallTier, installedAt: String,
                sdk: String?, sdkVersion: String?, sources: Sources) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.installHash = installHash
        self.tier = tier
        self.installedAt = installedAt
        self.sdk = sdk
        self.sdkVersion = sdkVersion
        self.sources = sources
    }
}
