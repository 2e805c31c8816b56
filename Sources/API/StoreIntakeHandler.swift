import Commands
import Crypto
import Domain
import Foundation
import HTTPServer

/// `POST /v1/m/store/{apple|google|revenuecat}/{token}`: a store's server notification for the app whose store token
/// is in the path (docs/store-notifications.md).
///
/// In order: the token's shape and the per-token limit (30/s), the app (an unknown or rotated-away token answers
/// the same 404 bytes), the store's own checks (400 malformed, 401 unverified — nothing recorded), then the command,
/// which records the notification once and applies its effect. Apple and RevenueCat get 200, Google 204, all with
/// an empty body; a repeat gets the same answer and changes nothing. Forwarding happens later, in a worker.
enum StoreIntakeHandler {
    static func receive(_ request: Request, _ context: RequestContext, _ environment: Environment,
                        store: NotificationStore, token: String) throws -> Response {
        guard let parsed = StoreToken.parse(token) else { throw notFound }
        let tokenHash = AppLookup.tokenHash(parsed)
        if let refusal = APIError.refusal(for: environment.rateLimiter.check(environment.storeLimit, key: tokenHash)) {
            throw refusal
        }
        let apps = try environment.apps()
        guard let app = try apps.lookup.storeApp(token: token) else { throw notFound }
        let now = environment.clock()
        let intake: Result<StoreIntake, IntakeFailure>
        switch store {
        case .revenuecat:
            intake = RevenueCatIntake.make(body: request.body, authorization: request.headers["authorization"],
                                           app: app, now: now)
        case .apple:
            intake = environment.storeChecks.apple.make(body: request.body, app: app, now: now)
        case .google:
            intake = environment.storeChecks.google.make(
                body: request.body, authorization: request.headers["authorization"], app: app,
                storeURL: storeURL(environment, store, token), now: now)
        }
        switch intake {
        case .failure(.malformed(let reason)):
            throw APIError(status: 400, code: .validationFailed, message: reason)
        case .failure(.unauthorized(let reason)):
            throw APIError(status: 401, code: .unauthorized, message: reason)
        case .success(let accepted):
            let metadata = EventMetadata(actor: .system("store-\(store.rawValue)"), requestId: context.requestID)
            _ = try apps.receiveStoreNotification.run(accepted, now: now, metadata: metadata)
            return Response(status: store == .google ? 204 : 200)
        }
    }

    /// This app's store URL for `store` (Google's push audience when the app sets none).
    static func storeURL(_ environment: Environment, _ store: NotificationStore, _ token: String) -> String {
        environment.publicBaseURL + "/v1/m/store/\(store.rawValue)/\(token)"
    }

    /// The one 404 of these routes: every unknown, rotated or malformed token gets these bytes.
    static let notFound = APIError(status: 404, code: nil, message: "no app has this store URL")
}
