import Commands
import Domain
import Foundation
import HTTPServer

/// `POST /v1/app-store/assn/{surfaceId}`: an App Store notification forwarded by the developer's own server, signed
/// with the surface's forwarding secret (docs/affiliates.md, "Forwarded notifications (surfaces)").
///
/// In order: the id's shape and the per-surface limit (30/s), the surface (an unknown or malformed id answers the same
/// 404 bytes; ids are global, so another organization's surface is simply a surface), `x-ea-timestamp` and
/// `x-ea-signature` over the raw body (401, nothing recorded), then the same Apple checks and command as the app's
/// store URL, with no forward destinations: a forwarded notification is never forwarded back. It is deduplicated with
/// the store URL's notifications by (app, `apple`, `notificationUUID`), so one received both ways counts once. 200
/// with an empty body for an accepted or repeated notification alike.
enum SurfaceIntakeHandler {
    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment,
                        surfaceId: String) throws -> Response {
        guard case .success(let surface) = SurfaceID.parse(surfaceId) else { throw notFound }
        let decision = environment.rateLimiter.check(environment.surfaceLimit, key: surface.description)
        if let refusal = APIError.refusal(for: decision) { throw refusal }
        let surfaces = try environment.surfaces()
        let apps = try environment.apps()
        guard let found = try surfaces.lookup.intake(surface) else { throw notFound }
        let now = environment.clock()
        let check = ForwardedSignatureCheck(window: environment.forwardedTimestampWindow)
        if case .failure(let refusal) = check.verify(
            timestamp: request.headers["x-ea-timestamp"], signature: request.headers["x-ea-signature"],
            body: request.body, secrets: found.secrets, now: now) {
            throw APIError(status: 401, code: .unauthorized, message: refusal.message)
        }
        switch environment.storeChecks.apple.make(body: request.body, app: found.app, now: now) {
        case .failure(.malformed(let reason)):
            throw APIError(status: 400, code: .validationFailed, message: reason)
        case .failure(.unauthorized(let reason)):
            throw APIError(status: 401, code: .unauthorized, message: reason)
        case .success(var intake):
            intake.destinations = []
            let metadata = EventMetadata(actor: .system("surface-\(surface)"), requestId: context.requestID)
            _ = try apps.receiveStoreNotification.run(intake, now: now, metadata: metadata)
            return Response(status: 200)
        }
    }

    /// The one 404 of this route: every unknown or malformed surface id gets these bytes.
    static let notFound = APIError(status: 404, code: nil, message: "no surface has this forwarding URL")
}
