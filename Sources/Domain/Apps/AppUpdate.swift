/// The decider of `PATCH /s2s/v1/apps/{appId}` and `handoff admin app update`.
///
/// The shell reads the app (of the caller's organization and, over S2S, the key's project, under a row lock), seals
/// the secrets the change sets, and records `AppUpdated` only when a setting changed, and an
/// `AppDestinationRemoved`/`AppDestinationAdded` pair (or one of them) when the forward URL did.
public enum AppUpdate {
    /// What the change does.
    public struct Decision: Sendable, Equatable {
        /// The app's settings after the change.
        public var facts: AppFacts
        /// Whether `facts` differ from before (record `AppUpdated`).
        public var settingsChanged: Bool
        /// The default destination the change removes (the old forward URL).
        public var removed: DestinationID?
        /// The default destination the change adds (the new forward URL).
        public var added: AppState.Destination?

        /// Whether nothing is to be recorded.
        public var isUnchanged: Bool { !settingsChanged && removed == nil && added == nil }
    }

    /// Decides applying `change` to `current` (nil = no such app, 404 `NOT_FOUND` about `appId`). `sealed` holds the
    /// sealed text of every secret `change` sets; `newDestination` is the id a new forward URL gets. A bundle id
    /// outside the rule of the app's platform is 409 `APP_PLATFORM_CONFLICT` when it is one of the other platform
    /// (the body alone is valid), else 400 `VALIDATION_BUNDLE_ID_FORMAT`.
    public static func decide(current: AppState?, change: AppChange, sealed: [AppSecretKind: SealedValue],
                              newDestination: DestinationID) -> Result<Decision, Refusal> {
        guard let current else { return .failure(.notFound("no app has this id", field: "appId")) }
        var facts = current.facts
        if let bundleId = change.bundleId {
            switch AppFields.bundleID(bundleId, platform: current.platform, field: change.fields.bundleId) {
            case .success(let checked):
                facts.bundleId = checked
            case .failure(let refusal):
                // Valid for the other platform: the body is fine on its own and conflicts with the stored app.
                let other: DevicePlatform = current.platform == .ios ? .android : .ios
                guard case .success = AppFields.bundleID(bundleId, platform: other) else {
                    return .failure(Refusal(refusal))
                }
                return .failure(Refusal(kind: .conflict, code: .appPlatformConflict, field: refusal.field,
                                        message: refusal.message + " (the app is an \(current.platform.rawValue) app)"))
            }
        }
        switch change.appAppleId {
        case .unchanged: break
        case .set(let id): facts.appAppleId = id
        case .clear: facts.appAppleId = nil
        }
        for (kind, secretChange) in change.secrets {
            switch secretChange {
            case .unchanged: break
            case .clear: facts.secrets[kind] = nil
            case .set:
                guard let value = sealed[kind] else {
                    return .failure(Refusal(kind: .invalid, code: .secretFormat, field: change.fields.secret(kind),
                                            message: "field '\(change.fields.secret(kind))' could not be sealed"))
                }
                facts.secrets[kind] = value
            }
        }
        var decision = Decision(facts: facts, settingsChanged: facts != current.facts, removed: nil, added: nil)
        let existing = current.forwardDestination
        switch change.forwardUrl {
        case .unchanged: break
        case .clear:
            decision.removed = existing?.id
        case .set(let url):
            guard existing?.url != url.text else { break }
            decision.removed = existing?.id
            decision.added = AppState.Destination(id: newDestination, scheme: .x3, url: url.text, isDefault: true)
        }
        return .success(decision)
    }
}
