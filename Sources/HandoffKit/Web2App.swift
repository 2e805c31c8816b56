import Foundation

/// The library's entry point for an app: configure once at launch, then three calls.
///
/// ```swift
/// Web2App.configure(projectId: "…", baseURL: URL(string: "https://handoff.example.com")!)
/// Web2App.onNeedEmail = { Task { @MainActor in showEmailField() } }
/// switch await Web2App.identify(deepLinkValue: link) { … }   // at launch and on every deep link
/// let entitlements = try await Web2App.entitlements()
/// ```
/// Every call forwards to one shared `Web2AppClient`; use that type directly for more than one project.
public enum Web2App {
    private static let shared = Locked<Web2AppClient?>(nil)
    private static let needEmail = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets the project and server with the default storage and device traits.
    public static func configure(projectId: String, baseURL: URL) {
        configure(Web2AppConfiguration(projectId: projectId, baseURL: baseURL))
    }

    /// Sets everything (storage, device traits, timeout, retries, log).
    public static func configure(_ configuration: Web2AppConfiguration) {
        let client = Web2AppClient(configuration: configuration)
        client.onNeedEmail = { needEmail.withLock { $0 }?() }
        shared.withLock { $0 = client }
    }

    /// The shared client, nil before `configure`.
    public static var client: Web2AppClient? { shared.withLock { $0 } }

    /// Called when `identify` ends with `.needsEmailFallback`, on the calling task (hop to the main actor for UI).
    public static var onNeedEmail: (@Sendable () -> Void)? {
        get { needEmail.withLock { $0 } }
        set { needEmail.withLock { $0 = newValue } }
    }

    /// Finds the buyer's guid (`Web2AppClient.identify(deepLinkValue:)`): pass the deep link's value, a code the
    /// buyer typed, or nil to try the device fingerprint.
    public static func identify(deepLinkValue: String?) async -> IdentifyResult {
        guard let client else { return .failed(.notConfigured) }
        return await client.identify(deepLinkValue: deepLinkValue)
    }

    /// Asks for the recovery mail (`Web2AppClient.requestEmailRecovery(email:)`).
    public static func requestEmailRecovery(email: String) async throws(Web2AppError) -> EmailRecoveryResult {
        guard let client else { throw .notConfigured }
        return try await client.requestEmailRecovery(email: email)
    }

    /// The buyer's entitlements (`Web2AppClient.entitlements()`).
    public static func entitlements() async throws(Web2AppError) -> Entitlements {
        guard let client else { throw .notConfigured }
        return try await client.entitlements()
    }

    /// Affiliate attribution for the app account `accountID` in the configured project, its token kept by
    /// `KeychainTokenStore(accountID:)`; `guid` is that account's buyer id when the app has one. nil before
    /// `configure`.
    public static func attribution(accountID: String, guid: String? = nil) -> Attribution? {
        guard let configuration = client?.configuration else { return nil }
        return Attribution(projectId: configuration.projectId, baseURL: configuration.baseURL,
                           tokenStore: KeychainTokenStore(accountID: accountID), guid: guid,
                           timeout: configuration.timeout, retry: configuration.retry, log: configuration.log)
    }

    /// `url` with `origin=app` and the app's id (`Web2AppClient.paywallURL(_:)`); unchanged before `configure`.
    public static func paywallURL(_ url: URL) -> URL {
        client?.paywallURL(url) ?? url
    }
}
