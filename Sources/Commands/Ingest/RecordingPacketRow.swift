import Domain
import Foundation

/// One admitted recording packet as `RecordingStore` writes it (migration 0033).
public struct RecordingPacketRow: Sendable, Equatable {
    /// A screenshot kept as a replay asset (content-addressed by `sha256`).
    public struct Asset: Sendable, Equatable {
        public var sha256: String
        public var mime: String
        public var bytes: [UInt8]

        public init(sha256: String, mime: String, bytes: [UInt8]) {
            self.sha256 = sha256
            self.mime = mime
            self.bytes = bytes
        }
    }

    public var orgId: OrgID
    public var projectId: ProjectID
    public var appId: AppID
    public var platform: DevicePlatform
    public var sessionId: String
    /// HMAC-SHA256(lookup pepper, `appId:ins`) in hex: the install is never kept in clear.
    public var installHash: String
    /// SHA-256 of the packet's `sec`, in hex.
    public var secretHash: String
    public var seq: Int
    public var screen: String?
    public var startedAt: Date
    public var endedAt: Date
    public var eventCount: Int
    /// NDJSON of the rrweb events, screenshots' `data` taken out.
    public var events: [UInt8]
    public var assets: [Asset]
    public var receivedAt: Date
    /// The SHA-256 of every screenshot the events name (sent with its bytes or by hash alone): their last use moves
    /// to `receivedAt`, which the retention reads.
    public var assetReferences: [String]

    public init(orgId: OrgID, projectId: ProjectID, appId: AppID, platform: DevicePlatform, sessionId: String,
                installHash: String, secretHash: String, seq: Int, screen: String?, startedAt: Date, endedAt: Date,
                eventCount: Int, events: [UInt8], assets: [Asset], receivedAt: Date, assetReferences: [String] = []) {
        self.orgId = orgId
        self.projectId = projectId
        self.appId = appId
        self.platform = platform
        self.sessionId = sessionId
        self.installHash = installHash
        self.secretHash = secretHash
        self.seq = seq
        self.screen = screen
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.eventCount = eventCount
        self.events = events
        self.assets = assets
        self.receivedAt = receivedAt
        self.assetReferences = assetReferences
    }
}
