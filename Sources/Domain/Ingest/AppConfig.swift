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

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IngestSettings.WireKey.self)
        try container.encode(Self.version, forKey: .init("v"))
        try container.encode(rev, forKey: .init("rev"))
        try container.encode(App(id: appId.description, plat: platform.rawValue, bid: bundleId), forKey: .init("app"))
        try settings.encodeWireMembers(into: &container)
    }
}
