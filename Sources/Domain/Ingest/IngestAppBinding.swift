/// The rule that a publishable key works only for its own app: the platform and bundle id (iOS) or package name
/// (Android) a request names must be the app's, exactly.
public enum IngestAppBinding {
    /// Checks the `plat` and `bid` a request names against the key's app. A missing or malformed one is 400
    /// `invalid` naming `platField`/`bidField`; a different one is 403 `app_mismatch`, which never says which part
    /// differed nor what the registered bundle id is.
    public static func check(platform: String?, bundleId: String?, app: DevicePlatform, appBundleId: String,
                             platField: String = "plat", bidField: String = "bid") -> Result<Void, IngestRefusal> {
        guard let platform, !platform.isEmpty else { return .failure(.invalid("\(platField) is required")) }
        guard let parsed = DevicePlatform(rawValue: platform) else {
            return .failure(.invalid("\(platField) must be ios or android"))
        }
        guard let bundleId, !bundleId.isEmpty else { return .failure(.invalid("\(bidField) is required")) }
        guard bundleId.utf8.count <= 255 else { return .failure(.invalid("\(bidField) is longer than 255 bytes")) }
        guard parsed == app, bundleId == appBundleId else { return .failure(.appMismatch) }
        return .success(())
    }
}
