import EventStore
import Foundation
import Postgres

/// The surface commands and reads (issue 15): surface secrets are sealed for their app, so they need the
/// personal-data master key (`HANDOFF_MASTER_KEY`); without it `WriteModel.surfaces` is nil and the forwarding URL
/// answers 503.
public struct SurfaceModel: Sendable {
    /// Surfaces as the CLI shows them, and what the forwarding URL needs.
    public let lookup: SurfaceLookup
    public let createSurface: CreateSurface
    public let rotateSecret: RotateSurfaceSecret

    /// The surface model over `log`, sealing with `masterKey` (32 bytes).
    public init(log: EventLog, masterKey: [UInt8]) {
        self.init(log: log, masterKeys: MasterKeyRing(current: masterKey))
    }

    /// The surface model over `log`, sealing with `masterKeys.current` and opening with whichever key a row names.
    public init(log: EventLog, masterKeys: MasterKeyRing) {
        let keys = SubjectKeys(masterKeys: masterKeys)
        let sealer = AppSealer(subjectKeys: keys)
        self.lookup = SurfaceLookup(pool: log.pool, subjectKeys: keys)
        self.createSurface = CreateSurface(log: log, sealer: sealer)
        self.rotateSecret = RotateSurfaceSecret(log: log, sealer: sealer)
    }
}
