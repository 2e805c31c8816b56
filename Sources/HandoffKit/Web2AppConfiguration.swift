import Foundation

/// Everything a `Web2AppClient` needs; `Web2App.configure(projectId:baseURL:)` builds one with the defaults.
public struct Web2AppConfiguration: Sendable {
    /// The project's public id (a UUID; `handoff admin project create` prints it).
    public var projectId: String
    /// Where Handoff answers, e.g. `https://handoff.example.com` (the deployment's `PUBLIC_BASE_URL`).
    public var baseURL: URL
    /// Where the guid and the library's device id are kept (default: a folder in Application Support).
    public var storage: any PersistentStorage
    /// The device's traits for the fingerprint path (default: the screen and Foundation values on iOS, none
    /// elsewhere).
    public var device: any DeviceTraitsSource
    /// The longest one request may take, in seconds (connect, send, answer).
    public var timeout: TimeInterval
    /// How 429 and 503 answers are retried.
    public var retry: RetryPolicy
    /// Receives one line per request (method, path without query, status, attempt); never codes, e-mails, guids
    /// or ids. nil: the library logs nothing.
    public var log: (@Sendable (String) -> Void)?

    /// A configuration; only the project and the server are required.
    public init(projectId: String, baseURL: URL, storage: any PersistentStorage = FileStorage.standard(),
                device: any DeviceTraitsSource = Web2AppConfiguration.defaultDevice, timeout: TimeInterval = 15,
                retry: RetryPolicy = RetryPolicy(), log: (@Sendable (String) -> Void)? = nil) {
        self.projectId = projectId
        self.baseURL = baseURL
        self.storage = storage
        self.device = device
        self.timeout = timeout
        self.retry = retry
        self.log = log
    }

    /// The platform's own traits source: `UIKitDeviceTraits` where UIKit is, else none.
    public static var defaultDevice: any DeviceTraitsSource {
        #if canImport(UIKit) && !os(watchOS) && !os(visionOS)
        return UIKitDeviceTraits()
        #else
        return NoDeviceTraits()
        #endif
    }

    /// `baseURL` with `path` appended and `query` added (each value percent-encoded).
    func url(_ path: String, query: [(String, String)] = []) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { $0.0 + "=" + PaywallLink.encode($0.1) }.joined(separator: "&")
        }
        return URL(string: text) ?? baseURL
    }
}
