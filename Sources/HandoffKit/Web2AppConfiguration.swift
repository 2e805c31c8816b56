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
    /// The buyer's languages, most preferred first (default `Locale.preferredLanguages`): sent as `Accept-Language`
    /// with the recovery request, which picks the mail's language (Russian for `ru`, else English).
    public var languages: [String]
    /// Receives one line per request (method, path without query, status, attempt); never codes, e-mails, guids
    /// or ids. nil: the library logs nothing.
    public var log: (@Sendable (String) -> Void)?

    /// A configuration; only the project and the server are required.
    public init(projectId: String, baseURL: URL, storage: any PersistentStorage = FileStorage.standard(),
                device: any DeviceTraitsSource = Web2AppConfiguration.defaultDevice, timeout: TimeInterval = 15,
                retry: RetryPolicy = RetryPolicy(), languages: [String] = Locale.preferredLanguages,
                log: (@Sendable (String) -> Void)? = nil) {
        self.projectId = projectId
        self.baseURL = baseURL
        self.storage = storage
        self.device = device
        self.timeout = timeout
        self.retry = retry
        self.languages = languages
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

    /// `languages` as an `Accept-Language` value (`ru-RU, en;q=0.9`): at most five, `_` read as `-`, anything but
    /// letters, digits and `-` left out; nil when none is left.
    var acceptLanguage: String? {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
        let tags = languages.map { $0.replacingOccurrences(of: "_", with: "-") }
            .filter { !$0.isEmpty && $0.count <= 35 && $0.allSatisfy { allowed.contains($0) } }.prefix(5)
        guard !tags.isEmpty else { return nil }
        return tags.enumerated().map { index, tag in index == 0 ? tag : "\(tag);q=0.\(10 - index)" }
            .joined(separator: ", ")
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
