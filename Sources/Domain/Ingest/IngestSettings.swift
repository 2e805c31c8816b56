/// What an app's SDK is told to do (the settings part of AppConfig, `GET /v1/m/config/{pk}`).
///
/// Every app starts with `defaults`; times are in milliseconds, `sampleRate` is a share of sessions in 0…1.
public struct IngestSettings: Sendable, Equatable, Codable {
    /// How the SDK records screens of a session (`recording{…}`).
    public struct Recording: Sendable, Equatable, Codable {
        public var enabled: Bool
        public var sampleRate: Double
        public var excludeScreens: [String]
        public var maskText: Bool
        public var maskImages: Bool
        public var unmaskAnchors: [String]
        public var maskAnchors: [String]
        public var screenshots: Bool
        public var maxFps: Int
        public var wifiOnly: Bool
        /// Whether the app is a health app (its screens may show health data): recordings need consent mode
        /// `opt_in` and never keep screenshots (`RecordingAdmission`, docs/recordings.md).
        public var health: Bool
    }

    /// Whether the SDK sends anything at all (false: a paused app; its batches are answered `paused`).
    public var enabled: Bool
    /// How often the SDK sends a batch, and after how many events at the latest.
    public var flushIntervalMs: Int
    public var flushEvents: Int
    /// A session ends after this long without activity.
    public var sessionTimeoutMs: Int
    /// Event names the SDK must not send (and the server drops).
    public var blockedEvents: [String]
    /// Screen globs (`*` any run of characters) whose views are not recorded.
    public var excludedScreens: [String]
    public var identifyEnabled: Bool
    /// "Leads from the app": `POST /v1/m/lead` is refused `lead_disabled` while false.
    public var leadsEnabled: Bool
    public var recording: Recording
    /// Whether the SDK updates SKAdNetwork conversion values.
    public var skan: Bool
    /// The hosts and path prefix of the app's deep links.
    public var linkHosts: [String]
    public var linkPathPrefix: String
    /// Whether the SDK attaches App Attest / Play Integrity tokens.
    public var attestation: Bool
    /// "Signup is lead": an `account_created` event plus an identity in a batch records the install's one signup
    /// lead. Not part of the AppConfig shape; nil (settings stored before it existed) is off.
    public var signupIsLead: Bool?

    /// A new app's settings.
    public static let defaults = IngestSettings(
        enabled: true, flushIntervalMs: 15_000, flushEvents: 50, sessionTimeoutMs: 30 * 60 * 1000,
        blockedEvents: [], excludedScreens: [], identifyEnabled: true, leadsEnabled: false,
        recording: Recording(enabled: false, sampleRate: 0, excludeScreens: [], maskText: true, maskImages: true,
                             unmaskAnchors: [], maskAnchors: [], screenshots: false, maxFps: 1, wifiOnly: true,
                             health: false),
        skan: false, linkHosts: [], linkPathPrefix: "/", attestation: false, signupIsLead: nil)
}
