import Foundation

/// What the app tells the server about the device for `resolve-by-fingerprint`: the attributes the post-payment page
/// reported from the buyer's browser on the same phone.
public struct DeviceTraits: Sendable, Equatable {
    /// The platform, as the page derives it from the browser's user agent.
    public enum Platform: String, Sendable, Equatable {
        case ios, android
    }

    /// Screen width and height in points: what Safari reports as `screen.width` × `screen.height` (CSS pixels are
    /// points, whatever the scale), so the app sends `UIScreen.main.bounds` as it is. Order does not matter.
    public var screenWidth: Int
    public var screenHeight: Int
    /// The IANA time zone (`Europe/Berlin`), as `Intl.DateTimeFormat().resolvedOptions().timeZone` gives it.
    public var timeZone: String?
    /// The preferred language (`de-DE`), as `navigator.language` gives it.
    public var language: String?
    public var platform: Platform
    /// The OS version (`17.4`); the server checks its form and ignores it.
    public var osVersion: String
    /// The app's bundle id; the server refuses a malformed one (`IdentifyError.misconfiguredBundleId`) and answers
    /// no match when it is not the project's.
    public var bundleId: String?

    /// Traits with every value given.
    public init(screenWidth: Int, screenHeight: Int, timeZone: String?, language: String?, platform: Platform,
                osVersion: String, bundleId: String?) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.timeZone = timeZone
        self.language = language
        self.platform = platform
        self.osVersion = osVersion
        self.bundleId = bundleId
    }

    /// Traits of this process from Foundation (time zone, preferred language, OS version, main bundle id) with the
    /// screen size the caller measured.
    public static func current(screenWidth: Int, screenHeight: Int, platform: Platform = .ios) -> DeviceTraits {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = version.patchVersion == 0
            ? "\(version.majorVersion).\(version.minorVersion)"
            : "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return DeviceTraits(screenWidth: screenWidth, screenHeight: screenHeight,
                            timeZone: TimeZone.current.identifier, language: Locale.preferredLanguages.first,
                            platform: platform, osVersion: osVersion, bundleId: Bundle.main.bundleIdentifier)
    }

    /// The request body of `POST /public/handoff/resolve-by-fingerprint`. A value the server would refuse for its
    /// form (a time zone or language outside the characters the page can send) is left out rather than sent.
    func fingerprintBody(projectId: String) -> [String: String] {
        var body = ["projectId": projectId, "platform": platform.rawValue, "osVersion": osVersion,
                    "screen": "\(screenWidth)x\(screenHeight)"]
        if let timeZone, Self.fits(timeZone, max: 64, extra: "/_+-") { body["timezone"] = timeZone }
        if let language, Self.fits(language, max: 35, extra: "_-") { body["language"] = language }
        if let bundleId { body["bundleId"] = bundleId }
        return body
    }

    private static func fits(_ value: String, max: Int, extra: String) -> Bool {
        let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + extra)
        return !value.isEmpty && value.count <= max && value.allSatisfy { letters.contains($0) }
    }
}

/// Gives the library the device's traits when it tries the fingerprint path; nil when the device has none to give
/// (then `identify(deepLinkValue: nil)` goes straight to the e-mail fallback).
public protocol DeviceTraitsSource: Sendable {
    /// The traits now (the screen is read on the main actor by the UIKit source).
    func traits() async -> DeviceTraits?
}

extension DeviceTraits: DeviceTraitsSource {
    /// Fixed traits, e.g. in tests or on Linux.
    public func traits() async -> DeviceTraits? { self }
}

/// A source without traits: the fingerprint path is skipped (macOS, Linux, or an app that opts out).
public struct NoDeviceTraits: DeviceTraitsSource {
    public init() {}
    public func traits() async -> DeviceTraits? { nil }
}
