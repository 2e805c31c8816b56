import Foundation

/// The stream names of surface events; every one lives in the log of the surface's app's organization.
public enum SurfaceStreams {
    /// A surface's own stream: its creation and its secret rotations.
    public static func surface(_ id: SurfaceID) -> String { "surface-\(id)" }
}

/// A surface was created for an iOS app: forwarded App Store notifications of the app are taken at
/// `POST /v1/app-store/assn/{surfaceId}` when signed with `secret` (sealed for the app, subject `app:<appId>`, field
/// `forwardingSecret`).
public struct SurfaceCreated: EventPayload, Equatable {
    public static let eventType = "SurfaceCreated"
    public static let schemaVersion = 1
    public var surfaceId: String
    public var appId: String
    public var projectId: String
    public var secret: SealedValue

    public init(surfaceId: SurfaceID, appId: AppID, projectId: ProjectID, secret: SealedValue) {
        self.surfaceId = surfaceId.description
        self.appId = appId.description
        self.projectId = projectId.description
        self.secret = secret
    }
}

/// A surface's forwarding secret was replaced by `secret` (sealed for the app). The secret it replaced keeps verifying
/// until `previousValidUntil` (RFC 3339, UTC, milliseconds; the rotation's time when there is no grace period); a
/// secret still in the grace of an earlier rotation stops at once.
public struct SurfaceSecretRotated: EventPayload, Equatable {
    public static let eventType = "SurfaceSecretRotated"
    public static let schemaVersion = 1
    public var surfaceId: String
    public var appId: String
    public var secret: SealedValue
    public var previousValidUntil: String

    public init(surfaceId: SurfaceID, appId: AppID, secret: SealedValue, previousValidUntil: Date) {
        self.surfaceId = surfaceId.description
        self.appId = appId.description
        self.secret = secret
        self.previousValidUntil = PaymentFields.text(previousValidUntil)
    }
}
