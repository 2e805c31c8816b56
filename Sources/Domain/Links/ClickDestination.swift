/// Where a followed go link sends the visitor (`GET /v1/go/{ref}`), decided from the user agent alone: Android to
/// Google Play with the install referrer `utm_…&x3c=<click token>`, iPhone, iPad and iPod to the App Store with the
/// link's `pt` and `ct`, everything else — and a platform the link has no app for — to the fallback URL with the
/// UTM parameters added.
public enum ClickDestination {
    /// Where a click went.
    public enum Platform: String, Sendable, Equatable, CaseIterable {
        case ios, android, web
    }

    /// What of a link and its apps the redirect needs.
    public struct Target: Sendable, Equatable {
        /// The Android app's package name, when the link has an Android app.
        public var androidPackage: String?
        /// The iOS app's App Store id (`appAppleId`), when the link has an iOS app that has one.
        public var appleAppId: Int64?
        public var fallbackUrl: String
        public var utm: LinkUTM
        public var providerToken: String?
        public var campaignToken: String?

        public init(androidPackage: String?, appleAppId: Int64?, fallbackUrl: String, utm: LinkUTM,
                    providerToken: String?, campaignToken: String?) {
            self.androidPackage = androidPackage
            self.appleAppId = appleAppId
            self.fallbackUrl = fallbackUrl
            self.utm = utm
            self.providerToken = providerToken
            self.campaignToken = campaignToken
        }
    }

    /// The platform a user agent names (`DevicePlatform(userAgent:)`), web for anything else or none.
    public static func platform(userAgent: String?) -> Platform {
        switch userAgent.flatMap(DevicePlatform.init(userAgent:)) {
        case .ios: return .ios
        case .android: return .android
        case nil: return .web
        }
    }

    /// The platform the click is sent to and the `Location` of the 302.
    public static func decide(_ target: Target, userAgent: String?, clickToken: LinkToken)
        -> (platform: Platform, location: String)
    {
        switch platform(userAgent: userAgent) {
        case .android:
            if let package = target.androidPackage {
                let referrer = (target.utm.pairs + [("x3c", clickToken.text)]).map { "\($0.0)=\($0.1)" }
                    .joined(separator: "&")
                return (.android, "https://play.google.com/store/apps/details?id=\(package)&referrer="
                            + percentEncoded(referrer))
            }
        case .ios:
            if let appleId = target.appleAppId {
                let query = [("pt", target.providerToken), ("ct", target.campaignToken), ("mt", "8")]
                    .compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: "&")
                return (.ios, "https://apps.apple.com/app/id\(appleId)?\(query)")
            }
        case .web:
            break
        }
        return (.web, withQuery(target.fallbackUrl, target.utm.pairs))
    }

    /// `url` with `pairs` added to its query, before any fragment. Values need no escaping (`LinkUTM.characters`).
    static func withQuery(_ url: String, _ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return url }
        let added = pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        let fragment = parts.count > 1 ? "#" + parts[1] : ""
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + added + fragment
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (the Play referrer's value is one query value).
    static func percentEncoded(_ text: String) -> String {
        let unreserved = ASCIISet("A-Za-z0-9._~-")
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
