import Domain
import Foundation

/// An App Store Server Notification V2 checked and turned into a `StoreIntake`: the body must be
/// `{"signedPayload":"<JWS>"}`, the JWS must verify for the app (`AppleSignedDataVerifier`), and its
/// `notificationUUID` is the dedupe key. The buyer is the transaction's `appAccountToken`.
public struct AppleIntake: Sendable {
    /// The largest body taken: Apple documents no maximum; a notification with its three JWS and their
    /// certificate chains is ~15 KB, so this leaves a wide margin.
    public static let bodyLimit = 256 * 1024

    public let verifier: AppleSignedDataVerifier

    public init(verifier: AppleSignedDataVerifier) { self.verifier = verifier }

    private struct Body: Decodable {
        var signedPayload: String
    }

    /// The intake of `body` sent to `app`'s Apple URL at `now`, or why not.
    public func make(body: [UInt8], app: AppLookup.StoreApp, now: Date) -> Result<StoreIntake, IntakeFailure> {
        guard let parsed = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            return .failure(.malformed("the body must be a JSON object with the string field 'signedPayload'"))
        }
        let verified: VerifiedAppleNotification
        switch verifier.verifyNotification(signedPayload: parsed.signedPayload, bundleId: app.bundleId,
                                           appAppleId: app.appAppleId, now: now) {
        case .success(let value): verified = value
        case .failure(.malformed(let problem)): return .failure(.malformed("field 'signedPayload': \(problem)"))
        case .failure(.unauthorized(let problem)): return .failure(.unauthorized("signedPayload: \(problem)"))
        }
        let effect = AppleNotificationEffect.effect(notificationType: verified.notificationType,
                                                    transaction: verified.transaction, signedAt: verified.signedDate,
                                                    now: now)
        let buyer: StoreIntake.BuyerReference = verified.transaction?.appAccountTokenUUID.map { .appAccountToken($0) }
            ?? .none
        return .success(StoreIntake(
            app: app, store: .apple, notificationId: verified.notificationUUID.lowercased(),
            notificationType: verified.notificationType, subtype: verified.subtype,
            environment: verified.environment.rawValue, verified: true, body: body, buyer: buyer, effect: effect,
            sale: CommissionSale.from(notificationType: verified.notificationType, transaction: verified.transaction)))
    }
}
