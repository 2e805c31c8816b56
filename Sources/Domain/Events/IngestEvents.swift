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
///
/// Version 2 carries the install's journey keys (`InstallJourney`) sealed for the install (`app-install:<hash>`) in
/// `journeyKeys`, so an erasure of the install (which destroys that key) leaves them erased in the log too; `sources`
/// then holds only the campaign-level fields. Version 1 kept the journey keys in clear in `sources`; it decodes into
/// the same type (no `journeyKeys`), and readers take `journeyKeys` when present, else the version 1 members.
public struct AppInstallRecorded: EventPayload, Equatable {
    public static let eventType = "AppInstallRecorded"
    public static let schemaVersion = 2

    /// Version 1 data as is (its clear journey keys are still read), version 2 as is; any other version throws.
    public static func upcast(_ data: EventJSON, from schemaVersion: Int) throws -> EventJSON {
        guard schemaVersion == 1 || schemaVersion == Self.schemaVersion else {
            throw EventPayloadError.noUpcast(eventType: eventType, from: schemaVersion, to: Self.schemaVersion)
        }
        return data
    }

    /// The journey keys, each sealed for the install under the field of its name (version 2; absent ones omitted).
    public struct JourneyKeys: Codable, Sendable, Equatable {
        public var x3c: SealedValue?
        public var gclid: SealedValue?
        public var appleAdsToken: SealedValue?
        public var link: SealedValue?
        public var metaReferrer: SealedValue?
        /// The Play referrer's `utm_content` when it is Meta's encrypted Install Referrer.
        public var utmContent: SealedValue?

        public init() {}

        /// Keeps `value` sealed under `field` (one of the journey key fields; any other is ignored).
        public mutating func set(_ value: SealedValue, for field: PersonalDataField) {
            if field == .x3c { x3c = value }
            if field == .gclid { gclid = value }
            if field == .appleAdsToken { appleAdsToken = value }
            if field == .link { link = value }
            if field == .metaReferrer { metaReferrer = value }
            if field == .utmContent { utmContent = value }
        }

        /// Whether no key is kept.
        public var isEmpty: Bool { self == JourneyKeys() }
    }

    /// What the install's sources said (all nil without attribution consent). In version 2 only the campaign-level
    /// fields (`utm*`, `goLinkId`); the members marked "version 1" are the journey keys in clear, kept to read old
    /// events.
    public struct Sources: Codable, Sendable, Equatable {
        public var utmSource: String?
        public var utmMedium: String?
        public var utmCampaign: String?
        public var utmTerm: String?
        public var utmContent: String?
        /// Version 1: Google Ads' click id.
        public var gclid: String?
        /// Version 1: Handoff's click token from the Play referrer, raw (known or not; `goLinkId` says whether it was).
        public var x3c: String?
        /// Version 1: the AdServices token awaiting resolution (tier `pending`).
        public var appleAdsToken: String?
        /// Version 1: the deep link of the first open, as sent.
        public var link: String?
        /// The go link of the click `x3c` names, when that click is known in the install's project (issue 21);
        /// absent in installs recorded before.
        public var goLinkId: String?
        /// Version 1: the campaign of a Meta Install Referrer (`utmContent`), decrypted with the app's key: Meta's
        /// JSON, compact with sorted keys.
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
    /// The native SDK (`X3Kit`, `X3Android`) and its version. Installs recorded before the wrapper members existed
    /// name the wrapper here when the app had one.
    public var sdk: String?
    public var sdkVersion: String?
    /// The wrapper the app is built with (`RN`, `Flutter`) and its version; absent without one (and in installs
    /// recorded before these members existed).
    public var wrapper: String?
    public var wrapperVersion: String?
    public var sources: Sources
    /// Version 2: the journey keys sealed for the install; nil when it has none (or in version 1).
    public var journeyKeys: JourneyKeys?

    public init(appId: AppID, projectId: ProjectID, installHash: String, tier: InstallTier, installedAt: String,
                sdk: String?, sdkVersion: String?, wrapper: String? = nil, wrapperVersion: String? = nil,
                sources: Sources, journeyKeys: JourneyKeys? = nil) {
        self.appId = appId.description
        self.projectId = projectId.description
        self.installHash = installHash
        self.tier = tier
        self.installedAt = installedAt
        self.sdk = sdk
        self.sdkVersion = sdkVersion
        self.wrapper = wrapper
        self.wrapperVersion = wrapperVersion
        self.sources = sources
        self.journeyKeys = journeyKeys
    }
}
