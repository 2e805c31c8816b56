import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// Creates a surface for an iOS app (`handoff admin surface create`): `SurfaceCreated` with a fresh forwarding secret
/// sealed for the app; refuses 404 for an app the caller does not have and 409 `APP_PLATFORM_CONFLICT` for an
/// Android app (`SurfaceCreation.decide`).
public struct CreateSurface: Sendable {
    /// The new surface and its forwarding secret (shown once; only its sealed text is kept).
    public struct Created: Sendable {
        public var surface: SurfaceLookup.Surface
        public var secret: ForwardingSecret
    }

    private let log: EventLog
    private let sealer: AppSealer

    init(log: EventLog, sealer: AppSealer) {
        self.log = log
        self.sealer = sealer
    }

    /// Records a surface for the app of `scope`; `field` names the app in a refusal (`--app` for the CLI).
    public func run(_ scope: AppCommandScope, field: String = "appId", metadata: EventMetadata) throws -> Created {
        let surface = SurfaceID(randomBytes: SecureRandom.bytes(16))
        let secret = ForwardingSecret(randomBytes: SecureRandom.bytes(ForwardingSecret.randomByteCount))
        return try log.transact(in: scope.orgScope) { transaction in
            let connection = transaction.connection
            let loaded = try AppLookup.state(scope.app, org: scope.org, project: scope.project, on: connection,
                                             forUpdate: false)
            try SurfaceCreation.decide(app: loaded?.state, field: field).get()
            guard let state = loaded?.state, let org = loaded?.org,
                  case .success(let project) = ProjectID.parse(state.facts.projectId)
            else { throw InconsistentState("a decided app was not loaded") }
            let sealed = try sealer.seal(secret.text, field: .forwardingSecret, app: scope.app, org: org,
                                         on: connection)
            try transaction.append(
                org: org.uuid, stream: SurfaceStreams.surface(surface), expectedVersion: .noStream,
                events: [try NewEvent(SurfaceCreated(surfaceId: surface, appId: scope.app, projectId: project,
                                                     secret: sealed))],
                metadata: metadata)
            guard let row = try SurfaceLookup.row(surface, on: connection, forUpdate: false) else {
                throw InconsistentState("a created surface does not read back")
            }
            return Created(surface: row.surface, secret: secret)
        }
    }
}
