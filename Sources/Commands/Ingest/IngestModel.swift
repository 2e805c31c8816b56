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
    /// Installs and their tier (`POST /v1/m/install`).
    public let recordInstall: RecordInstall
    /// Installs per day and tier (`GET /s2s/v1/apps/{appId}/installs`).
    public let installs: InstallCounts
    /// The `identity` install tier from batches' account tokens.
    public let identifyInstall: IdentifyInstall

    /// The ingest model over `log`.
    public init(log: EventLog) {
        self.lookup = IngestLookup(pool: log.pool)
        self.rotatePublishableKey = RotatePublishableKey(log: log)
        self.changeSettings = ChangeIngestSettings(log: log)
        self.rows = IngestRowStore(pool: log.pool)
        self.recordings = RecordingStore(pool: log.pool)
        self.recordInstall = RecordInstall(log: log)
        self.installs = InstallCounts(pool: log.pool)
        self.identifyInstall = IdentifyInstall(log: log)
    }
}
