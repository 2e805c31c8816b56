/// How the caller names each field of an app in refusals: the JSON keys of the S2S bodies or the admin flags.
public struct AppFieldNames: Hashable, Sendable {
    public var platform, bundleId, appAppleId, forwardUrl: String
    /// The name of each secret.
    public var secrets: [AppSecretKind: String]
    public var scheme, url, secret: String

    /// The JSON keys of `POST`/`PATCH /s2s/v1/apps…`.
    public static let json = AppFieldNames(
        platform: "platform", bundleId: "bundleId", appAppleId: "appAppleId", forwardUrl: "forwardUrl",
        secrets: Dictionary(uniqueKeysWithValues: AppSecretKind.allCases.map { ($0, $0.rawValue) }),
        scheme: "scheme", url: "url", secret: "secret")
    /// The flags of `handoff admin app …`.
    public static let flags = AppFieldNames(
        platform: "--platform", bundleId: "--bundle-id", appAppleId: "--app-apple-id", forwardUrl: "--forward-url",
        secrets: Dictionary(uniqueKeysWithValues: AppSecretKind.allCases.map { ($0, $0.flag) }),
        scheme: "--scheme", url: "--url", secret: "--secret")

    /// The name of `kind`.
    public func secret(_ kind: AppSecretKind) -> String { secrets[kind] ?? kind.rawValue }
}
