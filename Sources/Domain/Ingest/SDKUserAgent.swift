/// The SDK a request comes from, read from its `User-Agent`: `X3Kit/<version> (iOS <os>)` or
/// `X3Android/<version> (Android <os>)`, optionally followed by ` RN/<version>` or ` Flutter/<version>`.
public struct SDKUserAgent: Sendable, Equatable {
    /// The native SDK: `X3Kit` (iOS) or `X3Android`.
    public var sdk: String
    public var version: String
    public var platform: DevicePlatform
    public var osVersion: String
    /// `RN` or `Flutter` when the app is built with one, with its version.
    public var wrapper: String?
    public var wrapperVersion: String?

    /// Longest version or OS text kept.
    public static let maxPartLength = 32

    /// The SDK of `text`, or nil when it is not one of the SDKs' user agents (the batch rule `bot` uses that).
    public static func parse(_ text: String?) -> SDKUserAgent? {
        guard let text else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let product = parts[0].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard product.count == 2, isVersion(product[1]) else { return nil }
        let platform: DevicePlatform
        let osName: String
        switch product[0] {
        case "X3Kit": (platform, osName) = (.ios, "(iOS")
        case "X3Android": (platform, osName) = (.android, "(Android")
        default: return nil
        }
        guard parts[1] == osName, parts[2].hasSuffix(")") else { return nil }
        let os = String(parts[2].dropLast())
        guard isVersion(os) else { return nil }
        var agent = SDKUserAgent(sdk: product[0], version: product[1], platform: platform, osVersion: os)
        if parts.count == 4 {
            let wrapper = parts[3].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard wrapper.count == 2, wrapper[0] == "RN" || wrapper[0] == "Flutter", isVersion(wrapper[1]) else {
                return nil
            }
            agent.wrapper = wrapper[0]
            agent.wrapperVersion = wrapper[1]
        }
        return agent
    }

    init(sdk: String, version: String, platform: DevicePlatform, osVersion: String) {
        self.sdk = sdk
        self.version = version
        self.platform = platform
        self.osVersion = osVersion
    }

    /// 1–32 characters of digits, letters, `.`, `-`, `+` starting with a digit.
    private static func isVersion(_ text: String) -> Bool {
        guard let first = text.utf8.first, (0x30...0x39).contains(first), text.utf8.count <= maxPartLength else {
            return false
        }
        return versionCharacters.containsAll(text)
    }

    private static let versionCharacters = ASCIISet("A-Za-z0-9.+-")
}
