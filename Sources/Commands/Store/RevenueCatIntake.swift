import Crypto
import Domain
import Foundation

/// A RevenueCat webhook checked and turned into a `StoreIntake` (docs/store-notifications.md, "RevenueCat").
///
/// The `Authorization` header must equal the app's RevenueCat secret byte for byte (compared in constant time); an
/// app without a secret takes no RevenueCat webhooks. The event's `id` is the dedupe key.
public enum RevenueCatIntake {
    /// The intake of `body` sent with `authorization` to `app`'s RevenueCat URL, or why not.
    public static func make(body: [UInt8], authorization: String?, app: AppLookup.StoreApp, now: Date)
        -> Result<StoreIntake, IntakeFailure>
    {
        guard let secret = app.revenuecatSecret, let authorization,
              ConstantTime.equals(Array(authorization.utf8), Array(secret.utf8)) else {
            return .failure(.unauthorized("the Authorization header does not match the app's RevenueCat secret"))
        }
        let hook: RevenueCatWebhook
        switch RevenueCatWebhook.parse(body) {
        case .success(let parsed): hook = parsed
        case .failure(let failure): return .failure(failure)
        }
        let digest: (String) -> String = { Hex.encode(SHA256.hash($0)) }
        return .success(StoreIntake(
            app: app, store: .revenuecat, notificationId: hook.event.id, notificationType: hook.event.type,
            subtype: hook.event.cancelReason, environment: hook.environment, verified: true, body: body,
            buyer: .candidates(hook.buyerCandidates), effect: hook.effect(now: now, digest: digest)))
    }
}
