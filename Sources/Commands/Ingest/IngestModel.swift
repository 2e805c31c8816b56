import EventStore
import Foundation
import Postgres

/// App ingest (`/v1/m/*`, issue 20): publishable keys and what the SDKs read with them. It seals nothing, so it is
/// there with or without the identity secrets.
public struct IngestModel: Sendable {
    public let lookup: IngestLookup
    public let rotatePublishableKey: RotatePublishableKey
    public let changeSettings: ChangeIngestSettings
    /// The day-partitioned rows of stored batches.
    public let rows: IngestRowStore
    /// Session recordings (`POST /v1/m/r`) and their screenshots.
    public let recordings: RecordingStore
    /// Installs per day and tier (`GET /s2s/v1/apps/{appId}/installs`).
    public let installs: InstallCounts
    /// Apple's postback copies (`POST /v1/m/postbacks/{kind}/{endpoint}`) and their aggregates.
    public let postbacks: PostbackStore
    /// The `purchase` hints of stored batches, joined with payments into conversions.
    public let recordPurchaseHints: RecordPurchaseHints
    /// Confirmed conversions per day and install tier (`GET /s2s/v1/apps/{appId}/conversions`).
    public let conversions: ConversionCounts
    /// Sessions, screen views and events per day (`GET /s2s/v1/apps/{appId}/sessions`).
    public let sessions: SessionCounts
    /// A day's raw rows as JSON Lines (`GET /s2s/v1/apps/{appId}/export`).
    public let export: IngestExport
    /// The `identity` install tier from batches' account tokens.
    public let identifyInstall: IdentifyInstall

    /// The ingest model over `log`.
    public init(log: EventLog) {
        self.lookup = IngestLookup(pool: log.pool)
        self.rotatePublishableKey = RotatePublishableKey(log: log)
        self.changeSettings = ChangeIngestSettings(log: log)
        self.rows = IngestRowStore(pool: log.pool)
        self.recordings = RecordingStore(pool: log.pool)
        self.installs = InstallCounts(pool: log.pool)
        self.postbacks = PostbackStore(pool: log.pool)
        self.recordPurchaseHints = RecordPurchaseHints(log: log)
        self.conversions = ConversionCounts(pool: log.pool)
        self.sessions = SessionCounts(pool: log.pool)
        self.export = IngestExport(pool: log.pool)
        self.identifyInstall = IdentifyInstall(log: log)
    }
}
