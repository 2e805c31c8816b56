/// The AppConfig an SDK fetches (`GET /v1/m/config/{pk}`), in the wire protocol's exact shape:
/// `v, rev, app{id,plat,bid}, enabled, flush{intervalMs,events}, session{timeoutMs}, events{blocked},
/// screens{exclude}, identify{enabled}, leads{enabled}, recording{…}, skan, links{hosts,pathPrefix}, attestation`.
///
/// Every member is always written (they are the shape, not optional fields), so an SDK never meets a null.
public struct AppConfig: Sendable, Equatable, Encodable {
    /// The protocol version of this shape.
    public static let version = 1

    public var rev: Int
    public var appId: AppID
    public var platform: DevicePlatform
    public var bundleId: String
    public var settings: IngestSettings

    public init(rev: Int, appId: AppID, platform: DevicePlatform, bundleId: String, settings: IngestSettings) {
        self.rev = rev
        self.appId = appId
        self.platform = platform
        self.bundleId = bundleId
        self.settings = settings
    }

    private struct App: Encodable { var id: String, plat: String, bid: String }
    private struct Flush: Encodable { var intervalMs: Int, events: Int }
    private struct Session: Encodable { var timeoutMs: Int }
    private struct Events: Encodable { var blocked: [String] }
    private struct Screens: Encodable { var exclude: [String] }
    private struct Switch: Encodable { var enabled: Bool }
    private struct Links: Encodable { var hosts: [String], pathPrefix: String }

    private enum CodingKeys: String, CodingKey {
        case v, rev, app, enabled, flush, session, events, screens, identify, leads, recording, skan, links,
             attestation
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .v)
        try container.encode(rev, forKey: .rev)
        try container.encode(App(id: appId.description, plat: platform.rawValue, bid: bundleId), forKey: .app)
        try container.encode(settings.enabled, forKey: .enabled)
        try container.encode(Flush(intervalMs: settings.flushIntervalMs, events: settings.flushEvents), forKey: .flush)
        try container.encode(Session(timeoutMs: settings.sessionTimeoutMs), forKey: .session)
        try container.encode(Events(blocked: settings.blockedEvents), forKey: .events)
        try container.encode(Screens(exclude: settings.excludedScreens), forKey: .screens)
        try container.encode(Switch(enabled: settings.identifyEnabled), forKey: .identify)
        try container.encode(Switch(enabled: settings.leadsEnabled), forKey: .leads)
        try container.encode(settings.recording, forKey: .recording)
        try container.encode(settings.skan, forKey: .skan)
        try container.encode(Links(hosts: settings.linkHosts, pathPrefix: settings.linkPathPrefix), forKey: .links)
        try container.encode(settings.attestation, forKey: .attestation)
    }
}
