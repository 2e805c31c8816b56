import Foundation

/// The raw Google Play install referrer (`play.ref` of `POST /v1/m/install`), read as the URL query string Play hands
/// the app: `utm_source=…&utm_medium=…&gclid=…&x3c=…`.
///
/// Play writes `utm_source=google-play&utm_medium=organic` for a store-page install and `(not set)` when it knows
/// nothing; both are organic. A referrer is *attributed* when it carries Handoff's click token `x3c`, a Google Ads
/// click id `gclid`, or a UTM source or medium other than those.
public struct PlayReferrer: Sendable, Equatable {
    public var utmSource: String?
    public var utmMedium: String?
    public var utmCampaign: String?
    public var utmTerm: String?
    public var utmContent: String?
    public var gclid: String?
    /// Handoff's click token (issue 21 links it to its click); kept raw.
    public var x3c: String?

    public init(utmSource: String? = nil, utmMedium: String? = nil, utmCampaign: String? = nil, utmTerm: String? = nil,
                utmContent: String? = nil, gclid: String? = nil, x3c: String? = nil) {
        self.utmSource = utmSource
        self.utmMedium = utmMedium
        self.utmCampaign = utmCampaign
        self.utmTerm = utmTerm
        self.utmContent = utmContent
        self.gclid = gclid
        self.x3c = x3c
    }

    /// Longest value kept of one parameter; longer ones are cut (a referrer is at most a few KiB).
    public static let maxValueLength = 512

    /// Reads `raw`: `&`-separated `name=value` pairs, `+` and percent escapes decoded; the first of a repeated name
    /// wins; empty values, values with a control character (`%00` included: Postgres text holds no NUL) and unknown
    /// names are ignored. Never fails: a garbled referrer is simply organic.
    public static func parse(_ raw: String) -> PlayReferrer {
        var referrer = PlayReferrer()
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = decode(parts[0])
            let value = String(decode(parts[1]).prefix(maxValueLength))
            guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { continue }
            switch name {
            case "utm_source": referrer.utmSource = referrer.utmSource ?? value
            case "utm_medium": referrer.utmMedium = referrer.utmMedium ?? value
            case "utm_campaign": referrer.utmCampaign = referrer.utmCampaign ?? value
            case "utm_term": referrer.utmTerm = referrer.utmTerm ?? value
            case "utm_content": referrer.utmContent = referrer.utmContent ?? value
            case "gclid": referrer.gclid = referrer.gclid ?? value
            case "x3c": referrer.x3c = referrer.x3c ?? value
            default: continue
            }
        }
        return referrer
    }

    /// Whether the referrer names a source: `x3c`, `gclid`, or a UTM source/medium that is not Play's organic mark.
    public var isAttributed: Bool {
        if x3c != nil || gclid != nil { return true }
        let organic: Set<String> = ["google-play", "organic", "(not set)"]
        let named = [utmSource, utmMedium].compactMap { $0?.lowercased() }
        return named.contains { !organic.contains($0) }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
