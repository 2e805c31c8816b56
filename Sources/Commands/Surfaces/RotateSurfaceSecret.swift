import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Replaces a surface's forwarding secret (`handoff admin surface rotate-secret`): `SurfaceSecretRotated`. The new
/// secret verifies from the commit on; the replaced one until the grace period ends (`SurfaceSecretRotation`).
public struct RotateSurfaceSecret: Sendable {
    /// The surface as it now is, and its new secret (shown once).
    public struct Rotated: Sendable {
        public var surface: SurfaceLookup.Surface
        public var secret: ForwardingSecret
    }

    private let log: EventLog
    private let sealer: AppSealer

    init(log: EventLog, sealer: AppSealer) {
        self.log = log
        self.sealer = sealer
    }

    /// Rotates the secret of `surface` at `now`; the replaced secret verifies for `graceHours` more (0…720).
    /// Refuses 404 about `field` for an unknown surface. Concurrent rotations of one surface run one after the other
    /// (the row is locked).
    public func run(_ surface: SurfaceID, graceHours: Int, now: Date, field: String = "surfaceId",
                    metadata: EventMetadata) throws -> Rotated {
        let secret = ForwardingSecret(randomBytes: SecureRandom.bytes(ForwardingSecret.randomByteCount))
        return try log.transact(in: .orgOf(.surface, .text(surface.description))) { transaction in
            let connection = transaction.connection
            let current = try SurfaceLookup.row(surface, on: connection, forUpdate: true)
            let validUntil = try SurfaceSecretRotation.decide(surfaceExists: current != nil, graceHours: graceHours,
                                                              now: now, field: field).get()
            guard let current else { throw InconsistentState("a decided surface was not loaded") }
            let app = current.surface.appId
            let sealed = try sealer.seal(secret.text, field: .forwardingSecret, app: app,
                                         org: current.surface.orgId, on: connection)
            try transaction.append(
                org: current.surface.orgId.uuid, stream: SurfaceStreams.surface(surface), expectedVersion: .any,
                events: [try NewEvent(SurfaceSecretRotated(surfaceId: surface, appId: app, secret: sealed,
                                                           previousValidUntil: validUntil))],
                metadata: metadata)
            guard let row = try SurfaceLookup.row(surface, on: connection, forUpdate: false) else {
                throw InconsistentState("a rotated surface does not read back")
            }
            return Rotated(surface: row.surface, secret: secret)
        }
    }
}
