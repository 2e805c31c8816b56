/// The decider of `POST /s2s/v1/apps/{appId}/store-token` and `handoff admin app rotate-token`: an app's store token
/// is replaced; the old one stops working at the commit.
///
/// The shell draws the new token and seals it for the app; rotating twice in a row is two rotations.
public enum StoreTokenRotation {
    /// Decides rotating the token of `current` (nil = no such app, 404 `NOT_FOUND` about `appId`); answers the hash
    /// of the token to retire.
    public static func decide(current: AppState?) -> Result<String, Refusal> {
        guard let current else { return .failure(.notFound("no app has this id", field: "appId")) }
        return .success(current.storeTokenHash)
    }
}
