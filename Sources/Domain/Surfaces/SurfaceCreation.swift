/// The decider of `handoff admin surface create`: a surface belongs to an iOS app, because it takes App Store
/// notifications only.
///
/// The shell draws the surface id and its forwarding secret and seals the secret for the app.
public enum SurfaceCreation {
    /// Decides creating a surface for `app` (nil = no such app, 404 `NOT_FOUND` about `field`); an Android app is
    /// refused with 409 `APP_PLATFORM_CONFLICT`.
    public static func decide(app: AppState?, field: String = "appId") -> Result<Void, Refusal> {
        guard let app else { return .failure(.notFound("no app has this id", field: field)) }
        guard app.platform == .ios else {
            return .failure(Refusal(
                kind: .conflict, code: .appPlatformConflict, field: field,
                message: "the app is an android app: surfaces take App Store notifications, so only an ios app "
                    + "has them"))
        }
        return .success(())
    }
}
