/// An install's `pending` tier became final (issue 20): the Apple Ads resolver asked Apple's AdServices API about the
/// install's token. `tier` is `apple_ads` when Apple attributed the install, else the next tier by precedence
/// (`link`, `organic`, …); `reason` says why (`attributed`, `not_attributed`, `invalid_token`, `unresolved` after
/// the retries ran out). `attribution` is Apple's record (compact JSON with sorted keys) when attributed.
public struct AppInstallTierResolved: EventPayload, Equatable {
    public static let eventType = "AppInstallTierResolved"
    public static let schemaVersion = 1
    public var appId: String
    public var installHash: String
    public var tier: InstallTier
    public var reason: String
    public var attribution: String?

    public init(appId: String, installHash: String, tier: InstallTier, reason: String, attribution: String?) {
        self.appId = appId
        self.installHash = installHash
        self.tier = tier
        self.reason = reason
        self.attribution = attribution
    }
}
