import Domain
import Foundation

/// A Google Play RTDN push checked and turned into a `StoreIntake` (docs/store-notifications.md, "Google Play").
///
/// With a push service account set on the app, the `Authorization: Bearer` OIDC token must verify (audience: the
/// app's push audience, or the store URL when none is set) — else 401 before the body is read. Without one the
/// notification is recorded unverified: never applied, never forwarded. The body must be a Pub/Sub push of a
/// `DeveloperNotification` for the app's package (another package is 401: another app's notification). The dedupe
/// key is the Pub/Sub `messageId`.
///
/// A voided purchase names its order, so its refund applies at once; subscription and one-time product
/// notifications name only a purchase token, so their effect waits for the Play Developer API (the `google-play`
/// job, which needs the app's service-account key).
public struct GoogleIntake: Sendable {
    /// Google's keys, re-read from `GOOGLE_OIDC_JWKS` as the file changes; nil when unset (every push of an app with
    /// a push service account is then refused).
    public let keys: GoogleOIDCKeys?

    public init(keys: GoogleOIDCKeys?) { self.keys = keys }

    /// The intake of `body` pushed with `authorization` to `app`'s Google URL `storeURL` at `now`, or why not.
    public func make(body: [UInt8], authorization: String?, app: AppLookup.StoreApp, storeURL: String, now: Date)
        -> Result<StoreIntake, IntakeFailure>
    {
        var verified = false
        if let account = app.googlePushServiceAccount {
            let verifier = keys?.verifier(now: now) ?? .withoutKeys
            switch verifier.verify(authorization: authorization, audience: app.googlePushAudience ?? storeURL,
                                   serviceAccount: account, now: now) {
            case .success: verified = true
            case .failure(.unauthorized(let reason)):
                return .failure(.unauthorized("the push's OIDC token does not verify (\(reason))"))
            case .failure(.malformed(let message)): return .failure(.malformed(message))
            }
        }
        let push: PubSubPush
        switch GoogleNotificationParser.parse(body: body) {
        case .success(let parsed): push = parsed
        case .failure(.malformed(let message)): return .failure(.malformed(message))
        case .failure(.unauthorized(let reason)): return .failure(.unauthorized("\(reason)"))
        }
        let notification = push.notification
        guard notification.packageName == app.bundleId else {
            return .failure(.unauthorized("packageName is not the app's"))
        }
        var effect = StoreEffect.none
        if case .voidedPurchase(let voided) = notification.kind {
            let at = Date(timeIntervalSince1970: Double(notification.eventTimeMillis) / 1000)
            effect = PlayPurchaseEffect.voided(orderId: voided.orderId, now: at)
        }
        return .success(StoreIntake(
            app: app, store: .google, notificationId: push.message.messageId, notificationType: notification.kindName,
            subtype: notification.typeName, environment: nil, verified: verified, body: body, buyer: .none,
            effect: effect))
    }
}
