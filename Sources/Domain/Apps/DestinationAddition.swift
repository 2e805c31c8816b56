/// The decider of `POST /s2s/v1/apps/{appId}/destinations` and `handoff admin app destination add`.
///
/// The URL and the secret are checked before (`AppForwardURL.validate`, `SecretText.token`); the shell draws the
/// destination id and seals the secret.
public enum DestinationAddition {
    /// The most live destinations an app may have (the forward URL included).
    public static let maxDestinations = 20

    /// The outcome when the destination may be added.
    public enum Decision: Sendable, Equatable {
        /// Record `AppDestinationAdded`.
        case add
    }

    /// Decides adding a destination of `scheme` (with a secret or not) to `app` (nil = no such app, 404 about
    /// `appId`): `attribloom` only for an iOS app (it receives App Store notifications; 409 `APP_PLATFORM_CONFLICT`
    /// naming the field), and with a secret (its signature needs one; 400 naming the field); 409
    /// `APP_DESTINATION_LIMIT` over `maxDestinations`.
    public static func decide(app: AppState?, scheme: DestinationScheme, hasSecret: Bool, fields: AppFieldNames)
        -> Result<Decision, Refusal>
    {
        guard let app else { return .failure(.notFound("no app has this id", field: "appId")) }
        if scheme == .attribloom, app.platform != .ios {
            return .failure(Refusal(
                kind: .conflict, code: .appPlatformConflict, field: fields.scheme,
                message: "field '\(fields.scheme)' must be x3 for an android app (attribloom takes App Store "
                    + "notifications only)"))
        }
        if scheme.requiresSecret, !hasSecret {
            return .failure(Refusal(FieldRefusal(field: fields.secret, code: .secretFormat,
                                                 rule: "be given for an \(scheme.rawValue) destination")))
        }
        guard app.destinations.count < maxDestinations else {
            return .failure(Refusal(kind: .conflict, code: .destinationLimit, field: nil,
                                    message: "the app already has \(maxDestinations) destinations; remove one first"))
        }
        return .success(.add)
    }
}
